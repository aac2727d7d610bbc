import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { ValidationError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { DEFAULT_ROTATION_GRACE_HOURS, parseExpiresAt, rotatedKeyExpiry } from '../../domain/key-lifetime';
import { CreatedApiKeyResponse, toCreatedApiKeyResponse } from '../../dto/api-key.response';
import { CredentialEvents, keyEventSubject } from '../../credential-events';
import { ApiKeyNotFoundError, KEY_ID, KeyHolders } from '../../key-holders';
import { ApiKeyVerifier } from '../../api-key-verifier';
import { ApiKeyRepository } from '../../persistence/api-key.repository';
import { RotateApiKeyCommand } from './rotate-api-key.command';

@CommandHandler(RotateApiKeyCommand)
export class RotateApiKeyHandler implements ICommandHandler<RotateApiKeyCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly holders: KeyHolders,
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    private readonly verifier: ApiKeyVerifier,
    private readonly events: CredentialEvents,
  ) {}

  async execute(command: RotateApiKeyCommand): Promise<CreatedApiKeyResponse> {
    const { orgId, orgName, actor, holder, keyId, graceHours, expiresAt } = command.props;
    const rotated = await this.uow.run(async (manager) => {
      const owner = await this.holders.lock(manager, orgId, holder);
      const now = this.clock.now();
      const old = KEY_ID.test(keyId) ? await this.keys.lockLive(manager, owner, keyId, new Date(now)) : null;
      if (!old) throw new ApiKeyNotFoundError();
      const expiry = parseExpiresAt(expiresAt, now);
      if ('problem' in expiry) throw new ValidationError({ expires_at: expiry.problem });
      const oldStops = rotatedKeyExpiry(old.expires_at, now, graceHours ?? DEFAULT_ROTATION_GRACE_HOURS);
      await this.keys.expireAt(manager, old.id, oldStops);
      const issued = await this.keys.issue(manager, owner, old.description, expiry.expiresAt, new Date(now));
      const created = toCreatedApiKeyResponse(issued);
      const { key: _value, ...metadata } = created; // never the key's value
      await this.events.recordKeyEvent(
        manager,
        { orgId, orgName },
        holder,
        { type: 'api_key_rotated', ...keyEventSubject(holder), key: metadata, replaced_key: { id: old.id, expires_at: oldStops.getTime() / 1000 }, actor },
        new Date(now),
      );
      return { replacedId: old.id, response: { ...created, grace_period_expires_at: oldStops.getTime() / 1000 } };
    });
    // The id as stored, not as sent: cached answers are keyed by it, and the path may spell it in upper case.
    this.verifier.forget({ kind: 'key', id: rotated.replacedId });
    return rotated.response;
  }
}
