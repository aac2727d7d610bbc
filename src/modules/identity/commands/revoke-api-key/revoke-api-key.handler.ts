import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { CredentialEvents, keyEventSubject } from '../../credential-events';
import { ApiKeyNotFoundError, KEY_ID, KeyHolders } from '../../key-holders';
import { ApiKeyVerifier } from '../../api-key-verifier';
import { ApiKeyRepository } from '../../persistence/api-key.repository';
import { RevokeApiKeyCommand } from './revoke-api-key.command';

@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly holders: KeyHolders,
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    private readonly verifier: ApiKeyVerifier,
    private readonly events: CredentialEvents,
  ) {}

  async execute(command: RevokeApiKeyCommand): Promise<string> {
    const { orgId, orgName, actor, holder, keyId } = command.props;
    const revokedId = await this.uow.run(async (manager) => {
      const owner = await this.holders.lock(manager, orgId, holder);
      const now = new Date(this.clock.now());
      const id = KEY_ID.test(keyId) ? await this.keys.revoke(manager, owner, keyId, now) : null;
      if (!id) throw new ApiKeyNotFoundError();
      const key = await this.keys.metadata(manager, id);
      await this.events.recordKeyEvent(manager, { orgId, orgName }, holder, { type: 'api_key_revoked', ...keyEventSubject(holder), key, actor }, now);
      return id;
    });
    // The id as stored, not as sent: cached answers are keyed by it, and the path may spell it in upper case.
    this.verifier.forget({ kind: 'key', id: revokedId });
    return `API key ${keyId} was revoked`;
  }
}
