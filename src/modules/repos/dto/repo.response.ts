/** `GET /repos/{org}/{name}`: the fields of the reference's repo, `id` always a string. */
export interface RepoResponse {
  id: string;
  repo_id: string;
  name: string;
  url: string | null;
  provider: string | null;
  description: string | null;
  namespace_path: string | null;
  additional_info: Record<string, unknown>;
  tags: Record<string, string>;
  created_at: number;
  last_modified_at: number;
}

export interface RepoRecord {
  id: string;
  external_id: string;
  name: string;
  url: string | null;
  provider: string | null;
  description: string | null;
  namespace_path: string | null;
  additional_info: Record<string, unknown> | null;
  tags: Record<string, string> | null;
  created_at: Date;
  updated_at: Date;
}

export function toRepoResponse(row: RepoRecord): RepoResponse {
  return {
    id: String(row.id),
    repo_id: String(row.external_id),
    name: row.name,
    url: row.url,
    provider: row.provider,
    description: row.description,
    namespace_path: row.namespace_path,
    additional_info: row.additional_info ?? {},
    tags: row.tags ?? {},
    created_at: new Date(row.created_at).getTime() / 1000,
    last_modified_at: new Date(row.updated_at).getTime() / 1000,
  };
}
