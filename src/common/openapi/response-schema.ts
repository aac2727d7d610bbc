import { SetMetadata } from '@nestjs/common';

/**
 * How a module describes what its routes answer, for the API description (openapi-document.ts, beside it). Response types are
 * TypeScript interfaces, which leave nothing at run time, so each module writes their JSON schemas beside them
 * (`dto/<name>.schema.ts`) with the helpers below and puts `@ApiSuccess(schema)` on each handler method.
 * The description test fails for a route without it.
 */
export type JsonSchema = { [keyword: string]: unknown };

export const API_SUCCESS = 'veritrail:api-success';

export interface ApiSuccessOptions {
  /** The success statuses (default: the route's own, 201 for POST and 200 otherwise, or its `@HttpCode`). */
  status?: number[];
  /** Default `application/json`. */
  contentType?: string;
  description?: string;
}

export interface ApiSuccessMetadata extends ApiSuccessOptions {
  schema: JsonSchema;
}

/** What the route answers on success. */
export const ApiSuccess = (schema: JsonSchema, options: ApiSuccessOptions = {}) => SetMetadata(API_SUCCESS, { ...options, schema } satisfies ApiSuccessMetadata);

export const API_ERRORS = 'veritrail:api-errors';
/**
 * Error statuses a route answers beyond those its declarations imply (src/openapi/error-responses.ts), with
 * what each means: e.g. a public webhook receiver that checks a signature answers 401.
 */
export const ApiErrors = (errors: Record<number, string>) => SetMetadata(API_ERRORS, errors);

// JSON schema (2020-12, as OpenAPI 3.1 uses it) in a few words.
export const string: JsonSchema = { type: 'string' };
export const integer: JsonSchema = { type: 'integer' };
export const number: JsonSchema = { type: 'number' };
export const boolean: JsonSchema = { type: 'boolean' };
/** Any JSON value (free-form data stored as sent). */
export const anyJson: JsonSchema = {};
/** Unix seconds (fractions allowed). */
export const timestamp: JsonSchema = { type: 'number', description: 'Unix seconds' };

export const describe = (schema: JsonSchema, description: string): JsonSchema => ({ ...schema, description });
export const nullable = (schema: JsonSchema): JsonSchema =>
  typeof schema.type === 'string' ? { ...schema, type: [schema.type, 'null'] } : { anyOf: [schema, { type: 'null' }] };
export const oneOf = (...values: (string | number | boolean | null)[]): JsonSchema => ({ enum: values });
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
/** An object with any keys, each value of this schema (`tags`, `annotations`). */
export const mapOf = (values: JsonSchema = string): JsonSchema => ({ type: 'object', additionalProperties: values });

/** An object with these properties, all present unless listed in `optional` (others may be added later). */
export function object(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return { type: 'object', required: Object.keys(properties).filter((k) => !optional.includes(k)), properties };
}

/** The short message some writes answer with: a JSON string (`"OK"`, or a sentence). */
export const message: JsonSchema = describe(string, 'A short message, sent as a JSON string');

const links = object({ self: string, first: string, last: string, next: nullable(string), prev: nullable(string) });

/** The paged list envelope (common/pagination). */
export const pageOf = (item: JsonSchema): JsonSchema =>
  object({
    data: arrayOf(item),
    _links: links,
    pagination: object({ total: integer, page: integer, per_page: integer, page_count: integer }),
  });
