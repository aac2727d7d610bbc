import { anyJson, arrayOf, boolean, integer, nullable, object, oneOf, string, timestamp } from '../../../common/openapi/response-schema';

export const CUSTOM_TYPE_VERSION_SCHEMA = object({
  version: integer,
  timestamp,
  created_by: string,
  description: nullable(string),
  type_schema: anyJson,
  evaluator: object({ content_type: oneOf('jq', 'default'), rules: arrayOf(string) }, ['rules']),
  summary: arrayOf(object({ name: string, expression: string })),
});

export const CUSTOM_TYPE_SCHEMA = object({
  name: string,
  description: nullable(string),
  org: string,
  archived: boolean,
  created_by: string,
  created_at: timestamp,
  last_modified_at: timestamp,
  versions: arrayOf(CUSTOM_TYPE_VERSION_SCHEMA),
});

export const CUSTOM_TYPE_LIST_SCHEMA = arrayOf(CUSTOM_TYPE_SCHEMA);
