import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { UnitOfWork } from '../../../../database/unit-of-work';
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
  ) {}

  async execute(command: RevokeApiKeyCommand): Promise<string> {
    const { orgId, holder, keyId } = command.props;
    await this.uow.run(async (manager) => {
      const owner = await this.holders.lock(manager, orgId, holder);
      if (!KEY_ID.test(keyId) || !(await this.keys.revoke(manager, owner, keyId, new Date(this.clock.now())))) throw new ApiKeyNotFoundError();
    });
    this.verifier.forget({ kind: 'key', id: keyId });
    return `API key ${keyId} was revoked`;
  }
}
