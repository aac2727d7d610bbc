import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { ControlDirectory } from '../../../controls/controls.module';
import { Outbox } from '../../../outbox/outbox.module';
import { AttestationRecorder } from '../../recording/attestation-recorder';
import { AttestDecisionCommand } from './attest-decision.command';
import { decisionAttestationType } from './decision-attestation.type';

/**
 * The control must exist and be active when the decision is recorded (404 / 400; checked in the writing
 * transaction), then it is an attestation,
 * and a `decision.recorded` event (ON_DECISION) in the same transaction, as for a decision an evaluation makes.
 * Decisions are few, so they skip group commit for the transaction that holds both.
 */
@CommandHandler(AttestDecisionCommand)
export class AttestDecisionHandler implements ICommandHandler<AttestDecisionCommand> {
  constructor(
    private readonly controls: ControlDirectory,
    private readonly uow: UnitOfWork,
    private readonly recorder: AttestationRecorder,
    private readonly outbox: Outbox,
  ) {}

  async execute(command: AttestDecisionCommand): Promise<string> {
    const { orgId, flowName, trailName, actor, upload } = command.props;
    const { data, evidence } = upload;
    const recorded = await this.uow.run(async (manager) => {
      // In the writing transaction, holding the control: an archive committed before refuses the decision, one
      // after waits for it (never a decision stored after its control was archived).
      await this.controls.requireActive(manager, orgId, data.control, 'control');
      const recorded = await this.recorder.record(manager, { orgId, flowName, trailName, actor, type: decisionAttestationType, data, evidence });
      await this.outbox.appendWanted(manager, {
        orgId,
        type: 'decision.recorded',
        subject: { flow: flowName, trail: trailName, control: data.control },
        payload: {
          attestation_id: recorded.attestationIds[0],
          attestation_name: data.attestation_name,
          control: data.control,
          is_compliant: data.attestation_data.is_compliant,
          artifact_fingerprint: data.artifact_fingerprint ?? undefined,
          moment_number: recorded.momentNumber,
          reported_by: actor,
        },
      });
      return recorded;
    });
    return `decision attestation '${data.attestation_name}' was reported to trail '${trailName}' (attestation ${recorded.attestationIds[0]})`;
  }
}
