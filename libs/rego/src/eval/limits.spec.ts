import { compile, RegoError } from '../index';

/**
 * A limit the engine imposes to protect the process is not OPA's semantics: it halts the whole evaluation with
 * policy_resource_limit (as the deadline and the step budget do), with or without strict builtin errors, and
 * never makes a call undefined, which would flip a verdict.
 */
function outcome(src: string, ref: string, opts: Record<string, unknown> = {}): { value?: unknown; error?: RegoError } {
  try {
    return { value: compile({ 'p.rego': src }).evalValue(ref, opts).value };
  } catch (e) {
    expect(e).toBeInstanceOf(RegoError);
    return { error: e as RegoError };
  }
}

const halts = (src: string, ref: string, message: RegExp) => {
  for (const strictBuiltinErrors of [false, true]) {
    const { value, error } = outcome(src, ref, { strictBuiltinErrors });
    expect({ value, code: error?.code }).toEqual({ value: undefined, code: 'policy_resource_limit' });
    expect(error!.message).toMatch(message);
  }
};

describe('protections halt the evaluation instead of flipping a verdict', () => {
  it('numbers.range beyond its cap (the policy of the issue answered allow = true)', () => {
    const src = `package p
import rego.v1
big := [i | some i in numbers.range(1, 200000000)]
deny if count(big) > 0
allow if not deny`;
    halts(src, 'data.p.allow', /p\.rego:3: policy_resource_limit: numbers\.range: range of 200000000 numbers exceeds the limit of 10000000/);
    halts(src, 'data.p', /numbers\.range/);
    halts('package p\nimport rego.v1\nok if not numbers.range_step(0, 100000000000, 2)', 'data.p.ok', /numbers\.range_step: /);
  });

  it('net.cidr_expand of a block above its cap', () => {
    const src = `package p
import rego.v1
deny if count(net.cidr_expand("10.0.0.0/8")) > 1000
allow if not deny`;
    halts(src, 'data.p.allow', /policy_resource_limit: net\.cidr_expand: CIDR 10\.0\.0\.0\/8 expands to 16777216 addresses, above the limit of 4194304/);
    expect(outcome('package p\nn := count(net.cidr_expand("10.0.0.0/24"))', 'data.p.n').value).toBe(256);
  });

  it('a JS engine limit hit inside a builtin (string length here) halts too: Go has no such limit', () => {
    // 2^15 copies of a 2^15-character string: 2^30 characters, above V8's string length limit
    const src = `package p
import rego.v1
s := concat("", [x | some _ in numbers.range(1, 32768); x := sprintf("%32768d", [1])])
allow if count(s) < 0
allow if not s`;
    halts(src, 'data.p.allow', /policy_resource_limit: concat: Invalid string length/);
  });

  it('a value too deep for the stack halts, also when the overflow happens inside a builtin', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const src = 'package p\nimport rego.v1\ndeny if count(json.marshal(input)) > 0\nallow if not deny';
    for (const strictBuiltinErrors of [false, true]) {
      const { value, error } = outcome(src, 'data.p.allow', { input: deep, strictBuiltinErrors });
      expect({ value, code: error?.code }).toEqual({ value: undefined, code: 'policy_resource_limit' });
    }
  });

  it('the refusal of an unsupported builtin stops the evaluation rather than being undefined', () => {
    const { error } = outcome('package p\nimport rego.v1\nallow if not rego.parse_module("x.rego", "package x")', 'data.p.allow');
    expect(error?.code).toBe('eval_builtin_error');
  });
});

describe('caps that are OPA semantics stay ordinary builtin errors or values', () => {
  it('sprintf widths and precisions follow Go fmt: a `*` beyond 10^6 is BADWIDTH/BADPREC, a longer literal ends the verb', () => {
    const v = (f: string, args: string) => outcome(`package p\nv := sprintf(${JSON.stringify(f)}, ${args})`, 'data.p.v').value;
    expect(v('%*d|', '[2000000, 1]')).toBe('%!(BADWIDTH)1|');
    expect(v('%.*d|', '[2000000, 1]')).toBe('%!(BADPREC)1|');
    expect(v('%12345678d|%d', '[1, 2]')).toBe('%!(NOVERB)%!(EXTRA int=1, int=2)');
    expect((v('%2000000d', '[7]') as string).length).toBe(2000000);
    expect(v('%.120e', '[0.5]')).toBe('5.' + '0'.repeat(120) + 'e-01');
  });

  it('a builtin error from bad input stays undefined outside strict mode', () => {
    expect(outcome('package p\nv := numbers.range(1, 2.5)', 'data.p.v')).toEqual({ value: undefined });
    expect(outcome('package p\nv := net.cidr_expand("nope")', 'data.p.v')).toEqual({ value: undefined });
  });
});
