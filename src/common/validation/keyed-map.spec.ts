import { Type } from 'class-transformer';
import { IsArray, IsObject, ValidateNested } from 'class-validator';
import { ValidationError } from '../errors/app-error';
import { IsKeyedMap } from './keyed-map';
import { validateDto } from './strict-validation.pipe';

const HEX = /^[a-f0-9]{64}$/;
const digestProblems = (value: unknown) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { '': 'must be an object' };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v !== 'string' || !HEX.test(v)) out[k] = 'must be 64 lowercase hex characters';
  return Object.keys(out).length ? out : null;
};

class Item {
  @IsKeyedMap('isTestDigestMap', digestProblems)
  digests!: Record<string, string>;
}

class Body {
  @IsArray()
  @ValidateNested({ each: true })
  @IsObject({ each: true })
  @Type(() => Item)
  items!: Item[];
}

const errorsOf = (value: unknown) => {
  try {
    validateDto(Body, value);
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
  return null;
};

describe('IsKeyedMap', () => {
  const good = 'a'.repeat(64);

  it('accepts a valid map', () => {
    expect(errorsOf({ items: [{ digests: { web: good } }] })).toBeNull();
  });

  it('reports each bad entry under its own key, at any depth', () => {
    expect(errorsOf({ items: [{ digests: { web: good } }, { digests: { web: 'nope', 'db:1.2': good, 'reg.io/x': 'A'.repeat(64) } }] })).toEqual({
      'items[1].digests.web': 'must be 64 lowercase hex characters',
      'items[1].digests.reg.io/x': 'must be 64 lowercase hex characters',
    });
  });

  it('reports a value that is not a map under the property, and a missing one as required', () => {
    expect(errorsOf({ items: [{ digests: 'x' }, {}] })).toEqual({ 'items[0].digests': 'must be an object', 'items[1].digests': 'is required' });
  });

  it('refuses a constraint name defined twice with another rule', () => {
    expect(() => IsKeyedMap('isTestDigestMap', () => null)).toThrow(/defined twice/);
  });
});
