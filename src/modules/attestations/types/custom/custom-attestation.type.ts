import type { CustomAttestationTypeDirectory } from '../../../custom-attestation-types/custom-attestation-types.module';
import { commonRecordFields } from '../../dto/attestation-common-fields.dto';
import { AttestationTypeDefinition } from '../attestation-type';
import { CustomAttestationRequestDto } from './custom-attestation.request.dto';

/**
 * `custom`: data judged by one of the org's custom attestation types (its JSON Schema and jq rules, latest
 * version). Recorded as `custom:<type name>`, with the data, the type version that judged it and each rule's
 * verdict; `compliance_reasons` says why it is not compliant.
 */
export function customAttestationType(directory: CustomAttestationTypeDirectory): AttestationTypeDefinition<CustomAttestationRequestDto> {
  return {
    name: 'custom',
    schemaVersion: 1,
    dataClass: CustomAttestationRequestDto,
    acceptsAttachment: true,
    // Always replaced by the assessment; never trusted from the request.
    isCompliant: () => false,
    toRecord: (data) => ({
      ...commonRecordFields(data),
      extra: {
        type_name: data.type_name,
        attestation_data: data.attestation_data,
        ...(data.target_artifacts?.length ? { target_artifacts: data.target_artifacts } : {}),
      },
    }),
    async assess({ orgId, data }) {
      const judged = await directory.assess(orgId, data.type_name, data.attestation_data);
      return {
        isCompliant: judged.isCompliant,
        reasons: judged.reasons,
        attestationType: `custom:${judged.typeName}`,
        // An archive of the type that commits while the rules ran refuses the attestation (400), never follows it.
        recheck: (manager) => directory.requireActive(manager, orgId, data.type_name),
        summary: {
          type_version: judged.typeVersion,
          rule_results: judged.rules.map((r) => ({ rule: r.rule, passed: r.passed, ...(r.reason ? { reason: r.reason } : {}) })),
          ...(judged.summary ? { summary: judged.summary } : {}),
        },
      };
    },
  };
}
