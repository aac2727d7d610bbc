import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { ValidationError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { parseExpiresAt } from '../../domain/key-lifetime';
import { CreatedApiKeyResponse, toCreatedApiKeyResponse } from '../../dto/api-key.response';
import { CredentialEvents, keyEventSubject } from '../../credential-events';
import { KeyHolders } from '../../key-holders';
import { ApiKeyRepository } from '../../persistence/api-key.repository';
import { CreateApiKeyCommand } from './create-api-key.command';

@CommandHandler(CreateApiKeyCommand)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKeyCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly holders: KeyHolders,
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    private readonly events: CredentialEvents,
  ) {}

  async execute(command: CreateApiKeyCommand): Promise<CreatedApiKeyResponse> {
    const { orgId, orgName, actor, holder, description, expiresAt } = command.props;
    return this.uow.run(async (manager) => {
      const owner = await this.holders.lock(manager, orgId, holder);
      const now = this.clock.now();
      const expiry = parseExpiresAt(expiresAt, now);
      if ('problem' in expiry) throw new ValidationError({ expires_at: expiry.problem });
      const created = toCreatedApiKeyResponse(await this.keys.issue(manager, owner, description, expiry.expiresAt, new Date(now)));
      const { key: _value, ...metadata } = created; // never the key's value
      await this.events.recordKeyEvent(manager, { orgId, orgName }, holder, { type: 'api_key_created', ...keyEventSubject(holder), key: metadata, actor }, new Date(now));
      return created;
    });
  }
}
