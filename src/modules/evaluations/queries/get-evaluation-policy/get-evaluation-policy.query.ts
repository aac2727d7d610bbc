import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';

export interface GetEvaluationPolicyProps extends OrgScope {
  id: string;
}

/** The policy bundle an evaluation ran: its files as stored, their digests and the bundle digest. */
export interface EvaluationPolicyResponse {
  evaluation_id: string;
  /** `sha256:<hex>`: the evaluation's `verification.policy_digest` */
  digest: string;
  /** each file's text by path, exactly as sent (a `.wasm` file is its base64 text) */
  files: Record<string, string>;
  /** sha256 (hex) of each file's text, by path */
  file_digests: Record<string, string>;
}

/** `GET /evaluations/{org}/{id}/policy`. */
export class GetEvaluationPolicyQuery extends OrgQuery<GetEvaluationPolicyProps, EvaluationPolicyResponse> {}
