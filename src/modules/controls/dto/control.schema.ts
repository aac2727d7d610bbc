import { arrayOf, boolean, describe, integer, mapOf, object, oneOf, string, timestamp } from '../../../common/openapi/response-schema';

/** ControlResponse (control.response.ts). */
export const CONTROL_SCHEMA = object({
  identifier: string,
  name: string,
  version: integer,
  created_by: string,
  description: string,
  links: mapOf(string),
  created_at: timestamp,
  last_modified_at: timestamp,
  tags: mapOf(string),
  archived: boolean,
  policies_referencing: describe(
    arrayOf(string),
    "Names of the org's policies whose latest version has a decision rule for this control (by name), then digests (sha256:<hex>) of the evaluation policies that decided on it, most recent first",
  ),
});

export const CONTROL_PAGE_SCHEMA = object({ controls: arrayOf(CONTROL_SCHEMA), page: integer, per_page: integer, total_pages: integer, total_count: integer });

/** ControlVersionResponse (control-version.response.ts). */
export const CONTROL_VERSION_SCHEMA = object({
  identifier: string,
  version: integer,
  name: string,
  description: string,
  links: mapOf(string),
  archived: boolean,
  change: oneOf('created', 'edited', 'archived', 'unarchived', 'recorded'),
  changed_by: string,
  changed_at: timestamp,
});
