import { AttestationTypeDefinition } from '../attestation-type';
import { DecisionData, SystemDecisionRequestDto } from './decision-attestation.request.dto';
import { commonRecordFields } from '../../dto/attestation-common-fields.dto';

/**
 * `decision`: the outcome of a control's assessment. Compliant when the decision says so; the control, the
 * violations and (for server-side evaluations) what the decision rests on are kept in the attestation's `data`.
 */
export const decisionAttestationType: AttestationTypeDefinition<DecisionData> = {
  name: 'decision',
  schemaVersion: 1,
  dataClass: SystemDecisionRequestDto as new () => DecisionData,
  acceptsAttachment: true,
  isCompliant: (data) => data.attestation_data.is_compliant,
  toRecord: (data) => ({
    ...commonRecordFields(data),
    extra: {
      control: data.control,
      ...(data.violations ? { violations: data.violations } : {}),
      ...(data.evaluation ? { evaluation: data.evaluation } : {}),
      ...(data.target_artifacts?.length ? { target_artifacts: data.target_artifacts } : {}),
    },
  }),
};
