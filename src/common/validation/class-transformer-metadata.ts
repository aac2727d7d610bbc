import type { TypeMetadata } from 'class-transformer/types/interfaces';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';

/** What the compiled validation path needs to know about a DTO's class-transformer decorators. */
export interface TransformerMetadata {
  /** The @Type of a property: its type function and options, or undefined when it has none. */
  typeOf(cls: Function, property: string): TypeMetadata | undefined;
  /** Whether a property has a @Transform that applies from plain to class. */
  hasTransform(cls: Function, property: string): boolean;
  /** Whether the class (or an ancestor) uses @Expose or @Exclude, which change which keys are copied. */
  hasExposeOrExclude(cls: Function): boolean;
}

/** `TransformationType.PLAIN_TO_CLASS` (class-transformer/enums). */
const PLAIN_TO_CLASS = 0;
/** The storage methods read below; the spec beside this file checks them against the installed package. */
export const STORAGE_METHODS = ['findTypeMetadata', 'findTransformMetadatas', 'getExposedMetadatas', 'getExcludedMetadatas'] as const;

let cached: TransformerMetadata | undefined;

/**
 * The only read of class-transformer's private state. The library records @Type, @Transform, @Expose and
 * @Exclude in one module-level object, `defaultMetadataStorage` of `class-transformer/cjs/storage`, the object
 * its own plainToInstance reads; the package index does not export it and there is no public way to ask
 * "which @Type does this property have". So the version is pinned exactly in package.json, this function is
 * the one place that reaches in, it fails with a clear message when the object is not what it expects, and
 * class-transformer-metadata.spec.ts fails when an upgrade changes it.
 */
export function transformerMetadata(): TransformerMetadata {
  if (cached) return cached;
  const storage = (require('class-transformer/cjs/storage') as { defaultMetadataStorage?: MetadataStorage }).defaultMetadataStorage;
  const missing = STORAGE_METHODS.filter((method) => typeof (storage as Record<string, unknown> | undefined)?.[method] !== 'function');
  if (!storage || missing.length) {
    throw new Error(`class-transformer's metadata storage is not what compiled validation reads (missing: ${missing.join(', ') || 'the storage'}); check the pinned version`);
  }
  const metadata: TransformerMetadata = {
    typeOf: (cls, property) => storage.findTypeMetadata(cls, property),
    hasTransform: (cls, property) => storage.findTransformMetadatas(cls, property, PLAIN_TO_CLASS).length > 0,
    hasExposeOrExclude: (cls) => storage.getExposedMetadatas(cls).length > 0 || storage.getExcludedMetadatas(cls).length > 0,
  };
  cached = metadata;
  return metadata;
}
