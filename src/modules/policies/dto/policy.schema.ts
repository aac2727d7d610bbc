import { anyJson, arrayOf, boolean, integer, mapOf, object, oneOf, string, timestamp } from '../../../common/openapi/response-schema';

/** PolicyResponse (policy.response.ts). */
export const POLICY_SCHEMA = object({
  name: string,
  description: string,
  type: oneOf('env'),
  created_by: string,
  created_at: timestamp,
  last_modified_at: timestamp,
  archived: boolean,
  versions: arrayOf(object({ version: integer, comment: string, timestamp, created_by: string, policy_yaml: string })),
  events: arrayOf(object({ type: oneOf('creation', 'new_version'), timestamp, user: string, data: mapOf(anyJson) })),
  consuming_envs: arrayOf(string),
});

export const POLICY_LIST_SCHEMA = arrayOf(POLICY_SCHEMA);

/** PolicyVersionResponse (policy-version.response.ts). */
export const POLICY_VERSION_SCHEMA = object({ name: string, version: integer, comment: string, timestamp, created_by: string, policy_yaml: string });
