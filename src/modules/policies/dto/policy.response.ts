/** A policy as `GET /policies/{org}/{name}` shows it (the reference's shape). Times are Unix seconds. */
export interface PolicyResponse {
  name: string;
  description: string;
  type: 'env';
  created_by: string;
  created_at: number;
  last_modified_at: number;
  archived: boolean;
  /** Oldest first: the last is the version in force. */
  versions: Array<{ version: number; comment: string; timestamp: number; created_by: string; policy_yaml: string }>;
  events: Array<{ type: 'creation' | 'new_version'; timestamp: number; user: string; data: Record<string, unknown> }>;
  /** Environments the policy is attached to. */
  consuming_envs: string[];
}
