import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';

export interface GetEvaluationAttestationProps extends OrgScope {
  id: string;
}

/** `GET /evaluations/{org}/{id}/attestation`: the signed decision's DSSE envelope, as its canonical JSON text. */
export class GetEvaluationAttestationQuery extends OrgQuery<GetEvaluationAttestationProps, string> {}
