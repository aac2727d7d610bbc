import { arrayOf, integer, mapOf, nullable, object, oneOf, pageOf, string, timestamp } from '../../../common/openapi/response-schema';

const templateAttestation = object({ name: string, type: string });
/** A parsed flow template (`version: 1`). */
export const FLOW_TEMPLATE_SCHEMA = object({
  version: oneOf(1),
  trail: object({ attestations: arrayOf(templateAttestation), artifacts: arrayOf(object({ name: string, attestations: arrayOf(templateAttestation) })) }),
});

/** FlowResponse (flow.response.ts). */
export const FLOW_SCHEMA = object({
  name: string,
  description: string,
  visibility: string,
  org: string,
  template: nullable(FLOW_TEMPLATE_SCHEMA),
  template_id: nullable(string),
  template_version: nullable(integer),
  repo_url: nullable(string),
  tags: mapOf(string),
  created_by: string,
  created_at: timestamp,
  last_modified_at: timestamp,
  last_deployment_at: nullable(timestamp),
  html_url: string,
  archived: { type: 'boolean' },
  archived_at: nullable(timestamp),
  history: arrayOf(object({ event: oneOf('renamed'), from: string, to: string, by: string, timestamp })),
});

/** An array, or the paged envelope when `page` or `per_page` is given. */
export const FLOW_LIST_SCHEMA = { anyOf: [arrayOf(FLOW_SCHEMA), pageOf(FLOW_SCHEMA)] };
