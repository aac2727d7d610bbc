import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ValidationError } from '../../../../common/errors/app-error';
import { AttestationBatcher } from '../../recording/attestation-batcher';
import { withAssessment } from '../../types/assessed-type';
import { AttestationTypeRegistry } from '../../types/attestation-type.registry';
import { AttestMultipartCommand } from './attest-multipart.command';

@CommandHandler(AttestMultipartCommand)
export class AttestMultipartHandler implements ICommandHandler<AttestMultipartCommand> {
  constructor(
    private readonly registry: AttestationTypeRegistry,
    private readonly batcher: AttestationBatcher,
  ) {}

  async execute(command: AttestMultipartCommand): Promise<string> {
    const type = this.registry.get(command.props.typeName);
    if (!type) throw new Error(`attestation type '${command.props.typeName}' is not registered`);

    // Flow and trail names and data_json were validated at the edge (the route's name parameters and
    // @UploadedAttestation(Dto)); the data must have been validated as this type's class.
    const { data, evidence } = command.props.upload;
    if (!(data instanceof type.dataClass)) {
      throw new Error(`attestation type '${type.name}' takes ${type.dataClass.name}, the route validated ${data.constructor.name}`);
    }
    if (evidence && !type.acceptsAttachment) {
      throw new ValidationError({ attachment_file: `attestations of type '${type.name}' take no attachment` });
    }

    // A type that judges its own evidence does so before anything is written (a malformed report is a 400).
    const assessment = type.assess ? await type.assess({ orgId: command.props.orgId, data, evidence }) : null;
    const judged = assessment ? withAssessment(type, assessment) : type;

    const input = {
      orgId: command.props.orgId,
      flowName: command.props.flowName,
      trailName: command.props.trailName,
      actor: command.props.actor,
      type: judged,
      data,
      evidence,
    };
    const recorded = assessment?.recheck ? await this.batcher.recordAfter(assessment.recheck, input) : await this.batcher.record(input);
    const name = type.toRecord(data).attestationName;
    return `${type.name} attestation '${name}' was reported to trail '${command.props.trailName}' (attestation ${recorded.attestationIds[0]})`;
  }
}
