import { parseArgs, UsageError } from './args';
import { discoverTests } from './discover-tests';
import { formatErrors } from './format-error';
import { jsonText } from './json-text';
import { isRefQuery } from '../src/sandbox/ref-query';

describe('parseArgs', () => {
  const specs = [
    { names: ['-d', '--data'], key: 'data', takesValue: true, repeat: true },
    { names: ['-v'], key: 'verbose', takesValue: false },
  ];
  it('collects repeated flags, = forms and positionals', () => {
    expect(parseArgs(['-d', 'a', '--data=b', 'q', '-v'], specs)).toEqual({
      flags: { data: ['a', 'b'], verbose: true },
      positional: ['q'],
    });
  });
  it('rejects unknown flags and missing values', () => {
    expect(() => parseArgs(['--nope'], specs)).toThrow(UsageError);
    expect(() => parseArgs(['-d'], specs)).toThrow(/needs a value/);
  });
});

describe('jsonText', () => {
  it('prints big integers exactly and sorts object keys', () => {
    expect(jsonText({ b: 12345678901234567890n, a: [1, 'x', null] }, 0)).toBe('{"a":[1,"x",null],"b":12345678901234567890}');
  });
});

describe('formatErrors', () => {
  it('renders file:row:col: code: message without doubling a prefix', () => {
    const e = { code: 'rego_parse_error', message: 'p.rego:3: rego_parse_error: unexpected eof', location: { file: 'p.rego', row: 3, col: 7 } };
    expect(formatErrors(e)).toEqual(['p.rego:3:7: rego_parse_error: unexpected eof']);
  });
  it('prefers detail and expands multiple errors', () => {
    const one = { code: 'rego_unsafe_var_error', detail: 'var x is unsafe', message: 'x', location: { file: 'a.rego', row: 1, col: 2 } };
    expect(formatErrors({ code: 'rego_unsafe_var_error', errors: [one, one] })).toEqual([
      'a.rego:1:2: rego_unsafe_var_error: var x is unsafe',
      'a.rego:1:2: rego_unsafe_var_error: var x is unsafe',
    ]);
  });
});

describe('discoverTests', () => {
  it('finds test_ rules once each, skipping functions and non-tests', () => {
    const src = 'package a.b\nimport rego.v1\n\ntest_one if true\ntest_one if false\ntest_fn(x) := x\nhelper if true\n\ntest_two := true\n';
    expect(discoverTests({ 'x.rego': src })).toEqual([
      { ref: 'data.a.b.test_one', file: 'x.rego', row: 4 },
      { ref: 'data.a.b.test_two', file: 'x.rego', row: 9 },
    ]);
  });
  it('quotes package segments that are not identifiers and scans modules that do not parse', () => {
    expect(discoverTests({ 'q.rego': 'package a["x-y"]\nimport rego.v1\ntest_q if true\n' })[0].ref).toBe('data.a["x-y"].test_q');
    expect(discoverTests({ 'z.rego': 'package z\ntest_z if {\n' })).toEqual([{ ref: 'data.z.test_z', file: 'z.rego', row: 2 }]);
  });
});

describe('isRefQuery', () => {
  it.each([
    ['data.policy', true],
    ['data', true],
    ['input.trails[0]', true],
    ['data.a["b-c"].d', true],
    ['x := data.a[_]', false],
    ['data.a == 1', false],
    ['data.a[x]', false],
  ])('%s -> %s', (q, want) => expect(isRefQuery(q)).toBe(want));
});
