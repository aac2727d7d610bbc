import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { sha256 } from '../../domain/session-tokens';
import { WebSessionRepository } from '../../persistence/web-session.repository';
import { EndWebSessionCommand } from './end-web-session.command';

@CommandHandler(EndWebSessionCommand)
export class EndWebSessionHandler implements ICommandHandler<EndWebSessionCommand> {
  constructor(private readonly sessions: WebSessionRepository) {}

  async execute({ props }: EndWebSessionCommand): Promise<void> {
    if (props.token && props.token.length <= 256) await this.sessions.end(sha256(props.token));
  }
}
