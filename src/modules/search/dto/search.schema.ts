import { anyJson, arrayOf, boolean, integer, object, oneOf, string } from '../../../common/openapi/response-schema';

const RESOLVED = (type: string) => object({ type: oneOf(type), count: integer, matches: arrayOf(string) });

/** SearchResponse (search.response.ts): the reference's shape. */
export const SEARCH_SCHEMA = object({
  resolved_to: object({
    type: oneOf('fingerprint', 'commit', 'multiple'),
    full_match: string,
    fingerprints: RESOLVED('fingerprint'),
    commits: RESOLVED('commit'),
  }),
  artifacts: arrayOf(
    object({
      fingerprint: string,
      name: string,
      has_provenance: boolean,
      git_commit: string,
      pipeline: string,
      flow: string,
      trail: string,
      template_reference_name: string,
      build_url: string,
      commit_url: string,
      compliance_state: string,
      running_in: arrayOf(string),
      exited_from: arrayOf(string),
      html_url: string,
      api_url: string,
      history: arrayOf(anyJson),
    }),
  ),
});
