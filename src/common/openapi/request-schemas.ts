import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage } from 'class-validator';
import { IOptions } from 'class-validator-jsonschema/build/options';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';

export const SCHEMA_REF = '#/components/schemas/';

const options = (): Partial<IOptions> => ({
  // The storage class-transformer keeps its @Type decorators in (see common/validation/class-transformer-metadata.ts).
  classTransformerMetadataStorage: (require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage }).defaultMetadataStorage,
  classValidatorMetadataStorage: getMetadataStorage(),
  refPointerPrefix: SCHEMA_REF,
});

/** A nested property without `@Type` points at the built-in `Object` or `Array`: plain JSON, described as such. */
function plainRefs<T>(value: T): T {
  if (Array.isArray(value)) return value.map(plainRefs) as T;
  if (!value || typeof value !== 'object') return value;
  const ref = (value as { $ref?: string }).$ref;
  if (ref === `${SCHEMA_REF}Object`) return { type: 'object' } as T;
  if (ref === `${SCHEMA_REF}Array`) return { type: 'array' } as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainRefs(v)])) as T;
}

/**
 * JSON schemas of the classes the routes validate, keyed by class name: the request DTOs carry no OpenAPI
 * decorators, so their schemas come from the validation rules themselves (nested classes through
 * class-transformer's `@Type`, inherited rules included). A rule with no JSON-schema counterpart (a custom
 * validator) leaves the property described by name only; the 400 answer then says what was wrong.
 * Two validated classes with one name would share a schema, so that stops the build.
 */
export function requestSchemas(routeClasses: Function[]): Record<string, SchemaObject> {
  const schemas = validationMetadatasToSchemas(options()) as Record<string, SchemaObject>;
  const named = new Map<string, Function>();
  for (const cls of routeClasses) {
    const other = named.get(cls.name);
    if (other && other !== cls) throw new Error(`Two validated classes are named ${cls.name}; rename one, their schemas would collide`);
    named.set(cls.name, cls);
    schemas[cls.name] = targetConstructorToSchema(cls, options()) as SchemaObject;
  }
  return plainRefs(schemas);
}
