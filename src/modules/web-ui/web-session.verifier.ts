import { Injectable } from '@nestjs/common';
import { SessionCredential, SessionVerifier } from '../../common/auth/auth-ports';
import { Clock } from '../../common/clock/clock';
import { ApiKeyVerifier } from '../identity/identity.module';
import { sha256, tokenMatches } from './domain/session-tokens';
import { WebSessionRepository } from './persistence/web-session.repository';

/**
 * A session cookie -> the principal of its API key. Each request reads the session (ended? expired?) and asks
 * the identity module about the key by its hash, so a revoked or expired key ends the session at the same
 * moment it stops working as a Bearer token.
 */
@Injectable()
export class WebSessionVerifier extends SessionVerifier {
  constructor(
    private readonly sessions: WebSessionRepository,
    private readonly keys: ApiKeyVerifier,
    private readonly clock: Clock,
  ) {
    super();
  }

  async verify(rawToken: string): Promise<SessionCredential | null> {
    if (rawToken.length > 256) return null;
    const row = await this.sessions.findOpen(sha256(rawToken));
    if (!row || row.expires_at.getTime() <= this.clock.now()) return null;
    const principal = await this.keys.verifyHash(row.key_hash);
    if (!principal) return null;
    return { principal, csrfMatches: (token) => tokenMatches(token, row.csrf_hash) };
  }
}
