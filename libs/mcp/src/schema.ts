/** JSON Schema (2020-12) in a few words, for tool inputs and outputs. */
export type Schema = { [keyword: string]: unknown };

export const str = (description?: string): Schema => (description ? { type: 'string', description } : { type: 'string' });
export const int = (description?: string): Schema => (description ? { type: 'integer', description } : { type: 'integer' });
export const num = (description?: string): Schema => (description ? { type: 'number', description } : { type: 'number' });
export const bool = (description?: string): Schema => (description ? { type: 'boolean', description } : { type: 'boolean' });
export const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
export const arr = (items: Schema, description?: string): Schema => ({ type: 'array', items, ...(description ? { description } : {}) });
export const anyJson: Schema = {};

/** An object with exactly these properties; all required unless listed in `optional`. */
export function obj(properties: Record<string, Schema>, optional: string[] = [], description?: string): Schema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
    ...(description ? { description } : {}),
  };
}

/** What every answer carries: the records it rests on. */
export const citations: Schema = arr(
  obj({ url: str('The API URL of the record (GET it with the same key to read it again)'), sha256: str('SHA-256 (hex) of the API answer this was built from') }),
  'The records this answer rests on',
);

/** Paging fields of a tool's input. */
export const pagingInput = {
  page: { type: 'integer', minimum: 1, maximum: 10000, default: 1, description: 'Page number, from 1' },
  per_page: { type: 'integer', minimum: 1, maximum: 50, default: 20, description: 'Items per page (at most 50)' },
};

/** Paging fields of a tool's answer. */
export const pagingOutput = {
  page: int(),
  per_page: int(),
  total: int('How many items there are in all (of those looked at)'),
  has_more: bool('Whether a next page exists'),
};

export interface Page<T> {
  items: T[];
  page: number;
  per_page: number;
  total: number;
  has_more: boolean;
}

/** One page of a list already in hand. */
export function pageOf<T>(all: T[], page = 1, perPage = 20): Page<T> {
  const start = (page - 1) * perPage;
  const items = all.slice(start, start + perPage);
  return { items, page, per_page: perPage, total: all.length, has_more: start + perPage < all.length };
}
