/** Safety of closures as OPA's compiler decides it (reorderBodyForSafety): which body must bind a shared var. */
import { compile, RegoError } from '../index';

const value = (src: string, ref: string, input?: unknown) => compile({ 'p.rego': src }).evalValue(ref, { input }).value;

describe('closure-local variables', () => {
  it('lets a comprehension bind a var the body declares with `some` but uses nowhere else', () => {
    const src = `package t
ys := r if {
	some x
	r := [y | y := input.a[x]]
}
byIndex := r if {
	some x
	r := {k: v | v := input.a[x]; k := x}
}
nested := r if {
	some x
	r := [y | y := [z | z := input.a[x]]]
}
found if {
	some i
	every v in input.a { v == input.a[i] }
}`;
    const input = { a: [1, 2] };
    expect(value(src, 'data.t.ys', input)).toEqual([1, 2]);
    expect(value(src, 'data.t.byIndex', input)).toEqual({ 0: 1, 1: 2 });
    expect(value(src, 'data.t.nested', input)).toEqual([[1, 2]]);
    expect(value(src, 'data.t.found', input)).toBe(true);
  });

  it('still requires the body to bind a var it uses outside the closure too', () => {
    const src = 'package t\np := [x, ys] if {\n\tsome x\n\tys := [y | y := input.a[x]]\n}\n';
    expect(() => compile({ 'p.rego': src })).toThrow(RegoError);
    expect(() => compile({ 'p.rego': src })).toThrow(/var x is unsafe/);
  });

  it('binds the shared var outside when the body does bind it', () => {
    const src = 'package t\np := ys if {\n\tsome x\n\tys := [y | y := input.a[x]]\n\tx := 1\n}\n';
    expect(value(src, 'data.t.p', { a: [5, 6] })).toEqual([6]);
  });

  it('applies in queries too', () => {
    expect(compile({ 'p.rego': 'package t\n' }).evaluate('some x; ys := [y | y := input[x]]', { input: ['a'] }).results).toEqual([{ ys: ['a'] }]);
  });
});
