/**
 * One version of a policy as `GET /policies/{org}/{name}/versions/{version}` shows it: the element of
 * `versions` of the policy's route, with the policy's name. Versions are immutable, so this answer never changes
 * once written (the evidence log's `policy_version` entries hash it).
 */
export interface PolicyVersionResponse {
  name: string;
  version: number;
  comment: string;
  /** Unix seconds */
  timestamp: number;
  created_by: string;
  policy_yaml: string;
}
