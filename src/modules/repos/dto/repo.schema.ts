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
