import { commonRecordFields } from '../../dto/attestation-common-fields.dto';
import { AttestationTypeDefinition } from '../attestation-type';
import { OverrideAttestationRequestDto, OverrideData } from './override-attestation.request.dto';

/**
 * `override`: a new verdict on a slot, with its reason. It is the slot's newest attestation, so the trail's
 * compliance counts it; the attestation it overrides stays as it was (evidence is append-only) and
 * `overridden_attestation_id` points to it. `reported_by` says who overrode.
 */
export const overrideAttestationType: AttestationTypeDefinition<OverrideData> = {
  name: 'override',
  schemaVersion: 1,
  dataClass: OverrideAttestationRequestDto as new () => OverrideData,
  acceptsAttachment: false,
  isCompliant: (data) => data.new_compliance_status,
  toRecord: (data) => ({
    ...commonRecordFields(data),
    extra: {
      overridden_attestation_id: data.overridden_attestation_id,
      original_attestation_type: data.original_attestation_type,
      reason: data.reason,
      ...(data.target_artifacts?.length ? { target_artifacts: data.target_artifacts } : {}),
    },
  }),
};
