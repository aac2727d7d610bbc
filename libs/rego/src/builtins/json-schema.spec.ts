import { call } from './spec-helpers';
import { Value } from '../value';

describe('json schema', () => {
  it('verifies schemas with gojsonschema messages', () => {
    expect(call('json.verify_schema', '{"type": "boolean"}')).toEqual([true, null]);
    expect(call('json.verify_schema', { type: 'unknown_type' })).toEqual([
      false,
      'jsonschema: has a primitive type that is NOT VALID -- given: /unknown_type/ Expected valid values are:[array boolean integer number null object string]',
    ]);
    expect((call('json.verify_schema', '{') as unknown[])[0]).toBe(false);
    expect(call('json.verify_schema', ['something'])).toEqual([false, 'jsonschema: wrong type, expected string or object']);
  });

  it('reports errors in gojsonschema order and format', () => {
    const schema: Value = {
      type: 'object',
      required: ['z'],
      properties: { a: { type: 'string' }, c: { uniqueItems: true, items: { minimum: 2 } } },
      additionalProperties: false,
    };
    const [ok, errors] = call('json.match_schema', { a: 1, b: 'x', c: [1, 1] }, schema) as [boolean, Array<Record<string, string>>];
    expect(ok).toBe(false);
    expect(errors.map((e) => e.error)).toEqual([
      '(Root): z is required',
      '(Root): Additional property b is not allowed',
      'a: Invalid type. Expected: string, given: integer',
      'c.0: Must be greater than or equal to 2',
      'c.1: Must be greater than or equal to 2',
      'c: array items[0,1] must be unique',
    ]);
    expect(errors[0]).toEqual({ error: '(Root): z is required', type: 'required', field: '(Root)', desc: 'z is required' });
  });

  it('supports combinators, refs, conditionals and draft differences', () => {
    const schema: Value = {
      definitions: { pos: { type: 'number', exclusiveMinimum: 0 } },
      properties: {
        n: { $ref: '#/definitions/pos' },
        e: { enum: ['a', 1] },
        o: { oneOf: [{ type: 'string' }, { maxLength: 1 }] },
        f: { if: { const: 1 }, then: { multipleOf: 2 } },
        d4: { minimum: 5, exclusiveMinimum: true },
      },
    };
    expect(call('json.match_schema', { n: 1, e: 1, o: 5, d4: 6 }, schema)).toEqual([true, []]);
    const [, errs] = call('json.match_schema', '{"n": 0, "e": "b", "o": "x", "f": 1, "d4": 5}', schema) as [boolean, Array<Record<string, string>>];
    expect(errs.map((e) => e.error)).toEqual([
      'd4: Must be greater than 5',
      'e: e must be one of the following: "a", 1',
      'f: Must validate "then" as "if" was valid',
      'f: Must be a multiple of 2',
      'n: Must be greater than 0',
      'o: Must validate one and only one schema (oneOf)',
    ]);
  });

  it('checks formats and patterns with RE2', () => {
    const s = { properties: { d: { format: 'date-time' }, p: { pattern: '^v\\d+$' }, ip: { format: 'ipv4' } } };
    expect(call('json.match_schema', { d: '2020-01-01T00:00:00Z', p: 'v1', ip: '1.2.3.4' }, s)).toEqual([true, []]);
    const [ok, errs] = call('json.match_schema', { d: 'yesterday', p: 'x', ip: '::1' }, s) as [boolean, Array<Record<string, string>>];
    expect(ok).toBe(false);
    expect(errs.map((e) => e.type)).toEqual(['format', 'format', 'pattern']);
  });

  it('resolves $ref against the base URI its enclosing $id sets, including documents embedded by $id', () => {
    const schema: Value = {
      $id: 'http://example.com/schema/main.json',
      type: 'object',
      properties: {
        lic: { $ref: 'lic.json' },
        sig: { $ref: 'http://example.com/schema/sig.json#/definitions/alg' },
        loc: { $ref: '#named' },
      },
      definitions: {
        lic: { $id: 'http://example.com/schema/lic.json', type: 'string' },
        sig: { $id: 'sig.json', definitions: { alg: { enum: ['RS256'] } } },
        named: { $id: '#named', type: 'number' },
      },
    };
    const [ok, errors] = call('json.match_schema', { lic: 1, sig: 'x', loc: 'y' }, schema) as [boolean, Array<Record<string, string>>];
    expect(ok).toBe(false);
    expect(errors.map((e) => e.error).sort()).toEqual([
      'lic: Invalid type. Expected: string, given: integer',
      'loc: Invalid type. Expected: number, given: string',
      'sig: sig must be one of the following: "RS256"',
    ]);
    expect(call('json.verify_schema', { $id: 'http://a/b.json', properties: { x: { $ref: 'c.json' } } })).toEqual([
      false,
      'jsonschema: Reference c.json could not be resolved: remote references are not supported',
    ]);
  });
});
