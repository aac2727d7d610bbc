import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ValidationError } from '../../../../common/errors/app-error';
import { validateDto } from '../../../../common/validation/strict-validation.pipe';
import { AttestationBatcher } from '../../persistence/attestation-batcher';
import { AttestationTypeRegistry } from '../../types/attestation-type.registry';
import { AttestMultipartCommand } from './attest-multipart.command';

@CommandHandler(AttestMultipartCommand)
export class AttestMultipartHandler implements ICommandHandler<AttestMultipartCommand> {
  constructor(
    private readonly registry: AttestationTypeRegistry,
    private readonly batcher: AttestationBatcher,
  ) {}

  async execute(command: AttestMultipartCommand): Promise<string> {
    const type = this.registry.get(command.typeName);
    if (!type) throw new Error(`attestation type '${command.typeName}' is not registered`);

    const { dataJson, evidence } = command.upload;
    if (dataJson === undefined) throw new ValidationError({ data_json: 'is required' });
    let parsed: unknown;
    try {
      parsed = JSON.parse(dataJson);
    } catch (error) {
      throw new ValidationError({ data_json: `is not valid JSON: ${(error as Error).message}` });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ValidationError({ data_json: 'must be a JSON object' });
    }
    const data = validateDto(type.dataClass, parsed, '');
    if (evidence && !type.acceptsAttachment) {
      throw new ValidationError({ attachment_file: `attestations of type '${type.name}' take no attachment` });
    }

    const recorded = await this.batcher.record({
      orgId: command.orgId,
      flowName: command.flowName,
      trailName: command.trailName,
      actor: command.principal.name,
      type,
      data,
      evidence,
    });
    const name = type.toRecord(data).attestationName;
    return `${type.name} attestation '${name}' was reported to trail '${command.trailName}' (attestation ${recorded.attestationIds[0]})`;
  }
}
