import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { timingSafeEqual } from 'node:crypto';
import { Clock } from '../../../../common/clock/clock';
import { ForbiddenError, UnauthorizedError } from '../../../../common/errors/app-error';
import { ApiKeyVerifier } from '../../../identity/identity.module';
import { newToken, sha256, SESSION_TTL_MS } from '../../domain/session-tokens';
import { WebSessionRepository } from '../../persistence/web-session.repository';
import { StartedWebSession, StartWebSessionCommand } from './start-web-session.command';

@CommandHandler(StartWebSessionCommand)
export class StartWebSessionHandler implements ICommandHandler<StartWebSessionCommand> {
  constructor(
    private readonly keys: ApiKeyVerifier,
    private readonly sessions: WebSessionRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ props }: StartWebSessionCommand): Promise<StartedWebSession> {
    // Login CSRF: another site cannot read our cookie, so it cannot repeat it in the header.
    if (!sameToken(props.csrfCookie, props.csrfHeader)) {
      throw new ForbiddenError('Sign-in must repeat the vt_csrf cookie in the x-csrf-token header (load /ui first)');
    }
    const principal = await this.keys.verify(props.apiKey);
    if (!principal) throw new UnauthorizedError('Invalid, expired or revoked API key', 'Bearer');
    const token = newToken();
    const csrfToken = newToken();
    const expiresAt = new Date(this.clock.now() + SESSION_TTL_MS);
    await this.sessions.create({ tokenHash: sha256(token), keyHash: this.keys.hashOf(props.apiKey), csrfHash: sha256(csrfToken), expiresAt });
    return { token, csrfToken, expiresAt, principal: { kind: principal.kind, name: principal.name } };
  }
}

function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b || a.length > 256 || b.length > 256) return false;
  return timingSafeEqual(sha256(a), sha256(b));
}
