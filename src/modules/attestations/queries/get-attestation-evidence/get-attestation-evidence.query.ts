import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';

export interface EvidenceDownload {
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  /** The whole file, already checked against `sha256`. */
  content: Buffer;
}

export interface GetAttestationEvidenceProps extends OrgScope {
  flowName: string;
  trailName: string;
  attestationId: string;
}

export class GetAttestationEvidenceQuery extends OrgQuery<GetAttestationEvidenceProps, EvidenceDownload> {}
