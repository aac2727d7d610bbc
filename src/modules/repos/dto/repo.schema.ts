import { arrayOf, integer, mapOf, nullable, object, string, timestamp, anyJson } from '../../../common/openapi/response-schema';

/** RepoResponse (repo.response.ts). */
export const REPO_SCHEMA = object({
  id: string,
  repo_id: string,
  name: string,
  url: nullable(string),
  provider: nullable(string),
  description: nullable(string),
  namespace_path: nullable(string),
  additional_info: mapOf(anyJson),
  tags: mapOf(string),
  created_at: timestamp,
  last_modified_at: timestamp,
});

const links = object({ self: string, first: string, last: string, next: nullable(string), prev: nullable(string) });

export const REPO_PAGE_SCHEMA = object({ repos: arrayOf(REPO_SCHEMA), page: integer, per_page: integer, total_pages: integer, total_count: integer, _links: links });

export const REPO_TAGS_SCHEMA = object({ tag_choices: arrayOf(object({ key: string, value: string })), _links: object({ self: string }) });

/** RepoLiveStatusResponse (live-artifacts.response.ts). */
export const REPO_LIVE_STATUS_SCHEMA = object({
  live_artifacts: arrayOf(
    object({
      environment_id: string,
      artifact_id: string,
      artifact_name: string,
      snapshot_index: integer,
      compliance: nullable(string),
      started_at: timestamp,
      fingerprint: string,
      commit_sha: nullable(string),
      _links: mapOf(string),
    }),
  ),
  _embedded: object({
    artifacts: arrayOf(object({ id: string, fingerprint: string, commit_sha: nullable(string), commit_url: nullable(string) })),
    environments: arrayOf(object({ id: string, name: string, type: string })),
  }),
  _links: object({ self: string }),
});
