import { compile, RegoError } from '../index';

function value(src: string | Record<string, string>, ref: string, input?: unknown, data?: unknown): unknown {
  const files = typeof src === 'string' ? { 'p.rego': src } : src;
  return compile(files).evalValue(ref, { input, data }).value;
}

function evalError(src: string, ref: string, input?: unknown, opts: Record<string, unknown> = {}): RegoError {
  try {
    compile({ 'p.rego': src }).evalValue(ref, { input, ...opts });
  } catch (e) {
    expect(e).toBeInstanceOf(RegoError);
    return e as RegoError;
  }
  throw new Error('expected an evaluation error');
}

describe('evaluator: rules', () => {
  it('complete rules, defaults and undefined', () => {
    const src = 'package t\ndefault allow := false\nallow if input.user == "admin"\nname := input.user';
    expect(value(src, 'data.t.allow', { user: 'admin' })).toBe(true);
    expect(value(src, 'data.t.allow', { user: 'bob' })).toBe(false);
    expect(value(src, 'data.t.name', {})).toBeUndefined();
  });

  it('partial set and partial object rules', () => {
    const src = `package t
names contains n if some n in input.users
by_len[n] := count(n) if some n in input.users`;
    expect(value(src, 'data.t.names', { users: ['b', 'a', 'b'] })).toEqual(['a', 'b']);
    expect(value(src, 'data.t.by_len', { users: ['ab', 'c'] })).toEqual({ ab: 2, c: 1 });
    expect(value(src, 'data.t.names', { users: [] })).toEqual([]);
  });

  it('ref heads build nested documents', () => {
    const src = `package t
a.b.c := 1
a.b.d := 2
env[name].ok := true if some name in input`;
    expect(value(src, 'data.t', ['x'])).toEqual({ a: { b: { c: 1, d: 2 } }, env: { x: { ok: true } } });
  });

  it('functions with several definitions and else', () => {
    const src = `package t
kind(x) := "small" if x < 10
kind(x) := "big" if x >= 10
grade(s) := "A" if s > 90 else := "B" if s > 80 else := "C"
out := [kind(1), kind(50), grade(95), grade(85), grade(10)]`;
    expect(value(src, 'data.t.out')).toEqual(['small', 'big', 'A', 'B', 'C']);
  });

  it('function argument patterns', () => {
    const src = `package t
first([x, _]) := x
key({"k": v}) := v
out := [first([1, 2]), key({"k": "v"})]`;
    expect(value(src, 'data.t.out')).toEqual([1, 'v']);
  });

  it('else on complete rules', () => {
    const src = 'package t\nlevel := "high" if input.x > 5 else := "low"';
    expect(value(src, 'data.t.level', { x: 7 })).toBe('high');
    expect(value(src, 'data.t.level', { x: 1 })).toBe('low');
  });

  it('virtual documents across packages, iterated with base data', () => {
    const files = {
      'a.rego': 'package svc.a\nok := true',
      'b.rego': 'package svc.b\nok := false',
      'c.rego': 'package check\nall_ok := {k | some k; data.svc[k].ok}',
    };
    expect(value(files, 'data.check.all_ok', undefined, { svc: { c: { ok: true } } })).toEqual(['a', 'c']);
  });
});

describe('evaluator: data iteration', () => {
  it('iterating packages follows only the referenced rule', () => {
    const files = {
      'r1.rego': 'package rules.r1\nreport := 1\nboom := x if x := 1 / 0',
      'r2.rego': 'package rules.r2\nreport := 2\nconflict := 1\nconflict := 2 if true',
      'main.rego': 'package main\nreports[name] := r if r := data.rules[name].report',
    };
    expect(value(files, 'data.main.reports')).toEqual({ r1: 1, r2: 2 });
  });
});

describe('evaluator: expressions', () => {
  it('unification, := and ==', () => {
    const src = `package t
p := [a, b] if { [a, 2] = [1, b] }
q := x if { x := 3; x == 3 }`;
    expect(value(src, 'data.t.p')).toEqual([1, 2]);
    expect(value(src, 'data.t.q')).toBe(3);
  });

  it('not, some ... in, every', () => {
    const src = `package t
no_root if not "root" in input.users
pairs contains [k, v] if some k, v in input.m
all_pos if every x in input.xs { x > 0 }`;
    expect(value(src, 'data.t.no_root', { users: ['a'] })).toBe(true);
    expect(value(src, 'data.t.no_root', { users: ['root'] })).toBeUndefined();
    expect(value(src, 'data.t.pairs', { m: { a: 1 } })).toEqual([['a', 1]]);
    expect(value(src, 'data.t.all_pos', { xs: [1, 2] })).toBe(true);
    expect(value(src, 'data.t.all_pos', { xs: [1, -2] })).toBeUndefined();
    expect(value(src, 'data.t.all_pos', { xs: [] })).toBe(true);
  });

  it('iterates objects and sets in OPA order (sorted)', () => {
    const src = `package t
a := [[k, v] | some k, v in input.obj]
b := [x | some x in {3, 1, 2}]
c := [k | input.obj[k]]`;
    expect(value(src, 'data.t', { obj: { b: 1, a: 2 } })).toEqual({ a: [['a', 2], ['b', 1]], b: [1, 2, 3], c: ['a', 'b'] });
  });

  it('comprehensions', () => {
    const src = `package t
arr := [x * 2 | some x in input]
st := {x | some x in input; x > 1}
obj := {sprintf("k%d", [x]): x | some x in input}`;
    expect(value(src, 'data.t', [1, 2, 2])).toEqual({ arr: [2, 4, 4], st: [2], obj: { k1: 1, k2: 2 } });
  });

  it('indexed comprehensions group by the outer var', () => {
    const src = `package t
counts[id] := n if {
  some id in input.ids
  n := count([x | some x in input.items; x.id == id])
}
names(id) := {x.name | some x in input.items; id == x.id}
out := [names("a"), names("zz")]`;
    const input = { ids: ['a', 'b', 'c'], items: [{ id: 'a', name: 'n1' }, { id: 'b', name: 'n2' }, { id: 'a', name: 'n3' }] };
    expect(value(src, 'data.t.counts', input)).toEqual({ a: 2, b: 1, c: 0 });
    expect(value(src, 'data.t.out', input)).toEqual([['n1', 'n3'], []]);
  });

  it('with replaces input, data, functions and builtins', () => {
    const src = `package t
allow if input.role == data.roles.admin
double(x) := x * 2
mock_double(x) := x * 3
n := double(2)
t1 if allow with input.role as "a" with data.roles.admin as "a"
t2 := v if v := n with double as mock_double
t3 := v if v := count([1, 2]) with count as 42
t4 := v if v := n with double as 7`;
    expect(value(src, 'data.t.t1')).toBe(true);
    expect(value(src, 'data.t.t2')).toBe(6);
    expect(value(src, 'data.t.t3')).toBe(42);
    expect(value(src, 'data.t.t4')).toBe(7);
  });

  it('template strings interpolate values and render undefined', () => {
    const src = `package t
name := "Ada"
a := $"Hello, {name}! {count([1, 2])} {["x"]} {input.missing} \\{literal}"
b := $\`line one
{name}\``;
    expect(value(src, 'data.t.a', {})).toBe('Hello, Ada! 2 ["x"] <undefined> {literal}');
    expect(value(src, 'data.t.b', {})).toBe('line one\nAda');
  });

  it('print output is captured', () => {
    const b = compile({ 'p.rego': 'package t\np if { print("hello", input.x, input.missing) }' });
    const r = b.evaluate('data.t.p = x', { input: { x: { a: 1 } } });
    expect(r.results).toEqual([{ x: true }]);
    expect(r.prints).toEqual(['hello {"a": 1} <undefined>']);
  });

  it('query bindings as rows', () => {
    const b = compile({ 'p.rego': 'package t\nxs := [1, 2]' });
    expect(b.evaluate('some i; x := data.t.xs[i]').results).toEqual([
      { i: 0, x: 1 },
      { i: 1, x: 2 },
    ]);
    expect(b.evaluate('data.t.xs[0] == 1').results).toEqual([{}]);
    expect(b.evaluate('data.t.xs[0] == 2').results).toEqual([]);
  });

  it('rego.metadata.rule and chain', () => {
    const src = `# METADATA
# title: pkg
package t

# METADATA
# title: The rule
# custom:
#   severity: high
p := rego.metadata.rule()

q := rego.metadata.chain()`;
    expect(value(src, 'data.t.p')).toEqual({ title: 'The rule', custom: { severity: 'high' }, scope: 'rule' });
    const chain = value(src, 'data.t.q') as Array<{ path: string[] }>;
    expect(chain[0].path).toEqual(['t', 'q']);
    expect(chain[1]).toMatchObject({ path: ['t'], annotations: { title: 'pkg', scope: 'package' } });
  });
});

describe('evaluator: errors and limits', () => {
  it('conflicting complete rule values', () => {
    const e = evalError('package t\np := 1\np := 2 if true', 'data.t.p');
    expect(e.code).toBe('eval_conflict_error');
    expect(e.message).toContain('rule data.t.p produced conflicting values');
  });

  it('conflicting object keys and function outputs', () => {
    expect(evalError('package t\np[k] := v if { some k, v in {"a": 1}}\np["a"] := 2', 'data.t.p').code).toBe('eval_conflict_error');
    expect(evalError('package t\nf(_) := 1\nf(_) := 2\np := f(0)', 'data.t.p').code).toBe('eval_conflict_error');
  });

  it('builtin errors are undefined unless strict', () => {
    const src = 'package t\np := x if x := 1 / 0';
    expect(value(src, 'data.t.p')).toBeUndefined();
    const e = evalError(src, 'data.t.p', undefined, { strictBuiltinErrors: true });
    expect(e.code).toBe('eval_builtin_error');
    expect(e.message).toBe('p.rego:2: eval_builtin_error: div: divide by zero');
  });

  it('step budget stops with policy_resource_limit', () => {
    const src = 'package t\np := count([x | some x in numbers.range(1, 100000); x % 7 == 0])';
    const e = evalError(src, 'data.t.p', undefined, { maxSteps: 1000 });
    expect(e.code).toBe('policy_resource_limit');
  });

  it('deadline stops with policy_timeout', () => {
    const src = 'package t\np := count([1 | some x in numbers.range(1, 1000); some y in numbers.range(1, 1000); x > y])';
    const e = evalError(src, 'data.t.p', undefined, { deadlineMs: 20 });
    expect(e.code).toBe('policy_timeout');
  });
});

describe('evaluator: cached and inline evaluation keeps semantics', () => {
  it('terms without local variables are computed once per `with` scope', () => {
    const src = `package t
import rego.v1
limit := input.max * 2
over contains x if {
  some x in input.xs
  x > limit * 1
}
both := [a, b] if {
  a := over
  b := over with input as {"max": 1, "xs": [1, 3, 5]}
}`;
    expect(value(src, 'data.t.both', { max: 2, xs: [1, 3, 5] })).toEqual([[5], [3, 5]]);
  });

  it('inline comparisons and arithmetic follow `with` replacements and per-evaluation implementations', () => {
    const src = `package t
import rego.v1
sum := input.a + input.b
same if input.a == input.b
mocked if same with equal as true
r := x if x := sum with plus as minus`;
    expect(value(src, 'data.t.same', { a: 1, b: 2 })).toBeUndefined();
    expect(value(src, 'data.t.mocked', { a: 1, b: 2 })).toBe(true);
    expect(value(src, 'data.t.r', { a: 5, b: 2 })).toBe(3);
    const b = compile({ 'p.rego': src });
    expect(b.evalValue('data.t.sum', { input: { a: 1, b: 2 }, builtinImpls: { plus: () => 42 } }).value).toBe(42);
    expect(b.evalValue('data.t.sum', { input: { a: 1, b: 2 } }).value).toBe(3);
  });

  it('inline arithmetic matches the builtins on big and fractional numbers and type errors', () => {
    const src = `package t
out := [input.a * input.b, input.c - input.a, input.f + 0.2, 9007199254740991 + 2, input.n - 1]
bad := input.s + 1`;
    const out = value(src, 'data.t.out', { a: 1e9, b: 1790000000.5, c: 2, f: 0.1, n: 2 ** 60 }) as unknown[];
    expect(out.slice(0, 3)).toEqual([1790000000500000000, -999999998, 0.3]);
    expect(String(out[3])).toBe('9007199254740993');
    expect(String(out[4])).toBe('1152921504606846975');
    expect(value(src, 'data.t.bad', { s: 'x' })).toBeUndefined();
    expect(evalError(src, 'data.t.bad', { s: 'x' }, { strictBuiltinErrors: true }).code).toBe('eval_type_error');
  });

  it('calls of custom builtins and per-evaluation implementations are not merged', () => {
    const src = `package t
import rego.v1
out := [y | some x in [1, 2, 3]; y := ext.next(0) + x]`;
    let n = 0;
    const decl = { name: 'ext.next', args: [{ type: 'number' as const }], result: { type: 'number' as const }, impl: () => ++n };
    expect(compile({ 'p.rego': src }, { builtins: [decl] }).evalValue('data.t.out').value).toEqual([2, 4, 6]);
    let m = 0;
    const b = compile({ 'p.rego': 'package t\nimport rego.v1\nout := [y | some x in [1, 2]; y := count("ab") + x]' });
    expect(b.evalValue('data.t.out', { builtinImpls: { count: () => (m += 10) } }).value).toEqual([11, 22]);
  });

  it('bodies: long runs of filters, patterns in `some in`, enumerated collections, bound variables', () => {
    const filters = Array.from({ length: 400 }, (_, i) => `  x != ${i + 1000}`).join('\n');
    const src = `package t
import rego.v1
long contains x if {
  some x in input.xs
${filters}
}
pairs contains a if some [a, 2] in input.ps
nested contains x if some x in input.xss[_]
bound contains x if {
  x := 1
  some x in input.xs
}
keys contains k if some k, "v" in {"a": "v", "b": "w"}`;
    const input = { xs: [1, 2, 2], ps: [[1, 2], [3, 4], [5, 2]], xss: [[1], [2, 3]] };
    expect(value(src, 'data.t', input)).toEqual({ long: [1, 2], pairs: [1, 5], nested: [1, 2, 3], bound: [1], keys: ['a'] });
  });

  it('the step budget still stops long evaluations', () => {
    const src = 'package t\nimport rego.v1\nn := count([x | some x in numbers.range(1, 100000); x > 0])';
    expect(evalError(src, 'data.t.n', undefined, { maxSteps: 5000 }).code).toBe('policy_resource_limit');
    // Each element of a bare iteration counts too, not only the expressions after it.
    const bare = 'package t\nimport rego.v1\nn := count([x | some x in numbers.range(1, 100000)])';
    expect(evalError(bare, 'data.t.n', undefined, { maxSteps: 1000 }).code).toBe('policy_resource_limit');
  });

  it('function results are memoised per argument without conflating distinct values', () => {
    const src = `package t
f(x, y) := [x, y]
out := [f(1, "1"), f("1", 1), f(1, 1), f([1], {"a": 1}), f([1], {"a": 2})]`;
    expect(value(src, 'data.t.out')).toEqual([[1, '1'], ['1', 1], [1, 1], [[1], { a: 1 }], [[1], { a: 2 }]]);
  });
});

describe('comprehension indexing on refs of outer variables', () => {
  const src = `package t
backing[name] := n if {
	some svc in input.services
	name := svc.name
	n := count([p | some p in input.pods; p.app == svc.selector.app; p.ns == svc.ns])
}
first_pods[name] := ps if {
	some svc in input.services
	name := svc.name
	ps := {p.name | some p in input.pods; p.app == svc.selector.app}
}`;
  const input = {
    pods: [
      { name: 'a1', app: 'a', ns: 'x' },
      { name: 'a2', app: 'a', ns: 'y' },
      { name: 'b1', app: 'b', ns: 'x' },
      { name: 'n1', ns: 'x' },
    ],
    services: [
      { name: 's-a', ns: 'x', selector: { app: 'a' } },
      { name: 's-b', ns: 'y', selector: { app: 'b' } },
      { name: 's-none', ns: 'x', selector: {} },
    ],
  };

  it('groups once and looks up by the outer ref values; an undefined outer ref matches nothing', () => {
    expect(value(src, 'data.t.backing', input)).toEqual({ 's-a': 1, 's-b': 0, 's-none': 0 });
    expect(value(src, 'data.t.first_pods', input)).toEqual({ 's-a': ['a1', 'a2'], 's-b': ['b1'], 's-none': [] });
    const [rule] = compile({ 'p.rego': src }).policy.modules[0].rules;
    const assign = rule.body.find((e) => e.kind === 'assign' && e.right.type === 'call');
    const comp = assign && assign.kind === 'assign' && assign.right.type === 'call' ? assign.right.args[0] : undefined;
    expect(comp && 'index' in comp && comp.index !== undefined).toBe(true);
  });
});
