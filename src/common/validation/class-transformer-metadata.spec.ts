import 'reflect-metadata';
import { Exclude, Expose, plainToInstance, Transform, Type } from 'class-transformer';
import { STORAGE_METHODS, transformerMetadata } from './class-transformer-metadata';

class Leaf {
  name: string;
}
class Plain {
  @Type(() => Leaf) leaf: Leaf;
  @Transform(({ value }) => String(value)) text: string;
  untouched: string;
}
class Exposing {
  @Expose() shown: string;
}
class Excluding {
  @Exclude() hidden: string;
}

/*
 * Compiled validation reads class-transformer's private metadata storage (class-transformer-metadata.ts). If an
 * upgrade of the pinned package moves or reshapes it, these fail here, loudly, before any request is affected.
 */
describe("class-transformer's metadata storage, as compiled validation reads it", () => {
  it('is the pinned version', () => {
    // Change the pin only together with this file and class-transformer-metadata.ts, after these tests pass.
    expect(require('class-transformer/package.json').version).toBe('0.5.1');
    expect(require('../../../package.json').dependencies['class-transformer']).toBe('0.5.1');
  });

  it('is found where it is expected, with the methods that are read', () => {
    const { defaultMetadataStorage } = require('class-transformer/cjs/storage');
    expect(defaultMetadataStorage).toBeDefined();
    for (const method of STORAGE_METHODS) expect({ method, type: typeof defaultMetadataStorage[method] }).toEqual({ method, type: 'function' });
  });

  it('is the storage the public decorators write to and plainToInstance reads', () => {
    const metadata = transformerMetadata();
    const type = metadata.typeOf(Plain, 'leaf');
    expect(type?.typeFunction()).toBe(Leaf);
    expect(type?.options?.discriminator).toBeUndefined();
    expect(metadata.typeOf(Plain, 'untouched')).toBeUndefined();
    expect(metadata.hasTransform(Plain, 'text')).toBe(true);
    expect(metadata.hasTransform(Plain, 'leaf')).toBe(false);
    expect(metadata.hasExposeOrExclude(Plain)).toBe(false);
    expect(metadata.hasExposeOrExclude(Exposing)).toBe(true);
    expect(metadata.hasExposeOrExclude(Excluding)).toBe(true);
    // ... and what it reports is what plainToInstance does.
    const built = plainToInstance(Plain, { leaf: { name: 'x' }, text: 5 });
    expect(built.leaf).toBeInstanceOf(Leaf);
    expect(built.text).toBe('5');
  });
});
