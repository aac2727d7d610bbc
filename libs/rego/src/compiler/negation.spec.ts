/**
 * What `not` covers, as OPA's compiler decides it: the dynamic operands of a negated expression (refs, calls,
 * refs inside composite literals) are bound before the negation, so an undefined operand makes the body fail;
 * `x == y` in a rule is first rewritten to `x = y`, whose sides stay inside the negation.
 */
import { compile } from '../index';

const value = (src: string, ref: string, input?: unknown) => compile({ 'p.rego': src }).evalValue(ref, { input }).value;

describe('negation over expressions with undefined operands', () => {
  it('fails when an argument of a negated call is undefined (OPA binds it before the `not`)', () => {
    const src = `package t
f(_, _) := true
p if not f(1, input.missing)
q if not f(1, [input.missing])
r if not startswith(input.missing, "a")`;
    expect(value(src, 'data.t.p', {})).toBeUndefined();
    expect(value(src, 'data.t.q', {})).toBeUndefined();
    expect(value(src, 'data.t.r', {})).toBeUndefined();
  });

  it('keeps a ref compared with == or = inside the negation in rules', () => {
    const src = `package t
p if not input.x == false
q if not input.x = false
r if not input.obj[input.key]`;
    expect(value(src, 'data.t.p', {})).toBe(true);
    expect(value(src, 'data.t.q', {})).toBe(true);
    expect(value(src, 'data.t.p', { x: false })).toBeUndefined();
    // the key of a negated ref is bound outside: undefined key, undefined rule
    expect(value(src, 'data.t.r', { obj: {} })).toBeUndefined();
    expect(value(src, 'data.t.r', { obj: {}, key: 'k' })).toBe(true);
  });

  it('binds == operands outside the negation in queries (no rewrite to = there)', () => {
    const b = compile({ 'p.rego': 'package t\n' });
    expect(b.evaluate('not input.x == false', { input: {} }).results).toEqual([]);
    expect(b.evaluate('not input.x = false', { input: {} }).results).toEqual([{}]);
  });

  it('iterates an enumerating operand outside the negation', () => {
    const src = `package t
big(x) if x > 2
some_small if not big(input.xs[_])`;
    expect(value(src, 'data.t.some_small', { xs: [1, 5] })).toBe(true);
    expect(value(src, 'data.t.some_small', { xs: [5, 6] })).toBeUndefined();
  });

  it('keeps generated variables out of query results', () => {
    const b = compile({ 'p.rego': 'package t\nf(x) := x\n' });
    expect(b.evaluate('y := 1; not data.t.f(input.a)', { input: { a: false } }).results).toEqual([{ y: 1 }]);
  });
});

describe('functions of no arguments', () => {
  const src = `package t
base() := {"a": 1}
pick() := x if { x := input.x } else := "none"
doc := {"b": base, "c": pick}
called := base()`;

  it('are documents when referred to without parentheses', () => {
    expect(value(src, 'data.t.doc', { x: 2 })).toEqual({ b: { a: 1 }, c: 2 });
    expect(value(src, 'data.t.doc', {})).toEqual({ b: { a: 1 }, c: 'none' });
    expect(value(src, 'data.t.called', {})).toEqual({ a: 1 });
    expect(value(src, 'data.t.base.a', {})).toBe(1);
  });

  it('can be replaced with `with`, both as a call and as a document', () => {
    const b = compile({ 'p.rego': src + '\nmocked := x if {\n\tx := [doc.b, called] with base as 7\n}\n' });
    expect(b.evalValue('data.t.mocked', { input: {} }).value).toEqual([7, 7]);
  });
});

describe('unsafe variables under negation', () => {
  it('reports the user’s variable, never the one generated for the negated operand', () => {
    try {
      compile({ 'p.rego': 'package t\nf(_) := true\np if { not f(x.y) }\n' });
      throw new Error('expected an unsafe var error');
    } catch (e) {
      const errs = (e as { errors?: Array<{ message: string }> }).errors ?? [e as { message: string }];
      expect(errs.map((x) => x.message)).toEqual(['p.rego:3: rego_unsafe_var_error: var x is unsafe']);
    }
  });
});
