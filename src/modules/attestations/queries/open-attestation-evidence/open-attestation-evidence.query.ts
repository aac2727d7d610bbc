import { OrgQuery } from '../../../../common/cqrs/org-scoped';
import { GetAttestationEvidenceProps } from '../get-attestation-evidence/get-attestation-evidence.query';

/**
 * An attachment's bytes as they are stored, read slice by slice (at most about 1 MB at a time), NOT checked: the
 * consumer hashes them as they pass and must not present them as the attachment unless the whole came to `size`
 * bytes with SHA-256 `sha256` (the audit package does so; `GetAttestationEvidenceQuery` checks before it answers).
 */
export interface OpenedEvidence {
  /** The attestation's digest (hex) the bytes must have. */
  sha256: string;
  /** The size the store recorded (a tampered blob may yield more or fewer bytes). */
  size: number;
  chunks(): AsyncIterable<Buffer>;
}

export class OpenAttestationEvidenceQuery extends OrgQuery<GetAttestationEvidenceProps, OpenedEvidence> {}
