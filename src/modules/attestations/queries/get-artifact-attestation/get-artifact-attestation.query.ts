import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { AttestationResponse } from '../../dto/attestation.response';

export interface GetArtifactAttestationProps extends OrgScope {
  flowName: string;
  /** A fingerprint or its first 5+ characters. */
  fingerprint: string;
  attestationName: string;
}

/** `GET /attestations/{org}/{flow}/artifact/{fingerprint}/{name}`: the versions of that attestation, newest first. */
export class GetArtifactAttestationQuery extends OrgQuery<GetArtifactAttestationProps, AttestationResponse[]> {}
