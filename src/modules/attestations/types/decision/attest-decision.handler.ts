import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ControlDirectory } from '../../../controls/controls.module';
import { AttestationBatcher } from '../../recording/attestation-batcher';
import { AttestDecisionCommand } from './attest-decision.command';
import { decisionAttestationType } from './decision-attestation.type';

/** The control must exist and be active when the decision is recorded (404 / 400), then it is an attestation. */
@CommandHandler(AttestDecisionCommand)
export class AttestDecisionHandler implements ICommandHandler<AttestDecisionCommand> {
  constructor(
    private readonly controls: ControlDirectory,
    private readonly batcher: AttestationBatcher,
  ) {}

  async execute(command: AttestDecisionCommand): Promise<string> {
    const { orgId, flowName, trailName, actor, upload } = command.props;
    const { data, evidence } = upload;
    await this.controls.requireActive(undefined, orgId, data.control, 'control');
    const recorded = await this.batcher.record({ orgId, flowName, trailName, actor, type: decisionAttestationType, data, evidence });
    return `decision attestation '${data.attestation_name}' was reported to trail '${trailName}' (attestation ${recorded.attestationIds[0]})`;
  }
}
