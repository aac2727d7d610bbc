import { NotFoundError } from '../../../common/errors/app-error';
import { AttestationReader } from '../persistence/attestation.reader';
import { GetAttestationEvidenceProps } from './get-attestation-evidence/get-attestation-evidence.query';

/**
 * The attachment an attestation recorded (its digest, file name and type), for the evidence queries: 404 for an
 * unknown flow, trail or attestation, and for an attestation without an attachment.
 */
export async function attachedEvidence(
  reader: AttestationReader,
  props: GetAttestationEvidenceProps,
): Promise<{ sha256: Buffer; filename: string | null; contentType: string | null }> {
  const trailId = await reader.trailId(props.orgId, props.flowName, props.trailName);
  const attestation = await reader.evidenceOf(trailId, props.attestationId);
  if (!attestation) {
    throw new NotFoundError(`Attestation '${props.attestationId}' not found in trail '${props.trailName}' of flow '${props.flowName}'`);
  }
  if (!attestation.sha256) throw new NotFoundError('This attestation has no evidence file attached.');
  return { sha256: attestation.sha256, filename: attestation.filename, contentType: attestation.contentType };
}
