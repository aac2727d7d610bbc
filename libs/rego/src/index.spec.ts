import { compile, RegoError } from './index';
import { RegoSet } from './value';

describe('public API', () => {
  it('evaluate returns binding rows and evalValue the document', () => {
    const b = compile({ 'p.rego': 'package t\nxs := {3, 1}\nallow if input.ok' });
    expect(b.evaluate('data.t.allow', { input: { ok: true } }).results).toEqual([{}]);
    expect(b.evaluate('data.t.allow', { input: {} }).results).toEqual([]);
    expect(b.evaluate('x := data.t.xs').results).toEqual([{ x: [1, 3] }]);
    expect(b.evalValue('data.t.xs').value).toEqual([1, 3]);
    expect(b.evalValue('data.t.nope').value).toBeUndefined();
    const raw = b.evaluateValues('x := data.t.xs').results[0].x;
    expect(raw).toBeInstanceOf(RegoSet);
  });

  it('custom builtins are declared at compile time and implemented per evaluation or inline', () => {
    const builtins = [
      { name: 'acme.double', args: [{ type: 'number' as const }], result: { type: 'number' as const } },
      { name: 'acme.greet', args: [{ type: 'string' as const }], result: { type: 'string' as const }, impl: ([s]: unknown[]) => `hi ${s}` },
    ];
    const b = compile({ 'p.rego': 'package t\nd := acme.double(21)\ng := acme.greet("bo")\nm := v if v := acme.double(1) with acme.double as 7' }, { builtins });
    const impls = { 'acme.double': ([n]: unknown[]) => (n as number) * 2 };
    expect(b.evalValue('data.t', { builtinImpls: impls }).value).toEqual({ d: 42, g: 'hi bo', m: 7 });
    expect(() => compile({ 'p.rego': 'package t\nd := acme.double("x")' }, { builtins })).toThrow(/invalid argument/);
    const plain = { 'q.rego': 'package q\nv := 1' };
    expect(compile(plain).digest).not.toBe(compile(plain, { builtins }).digest);
  });

  it('query errors are coded', () => {
    const b = compile({ 'p.rego': 'package t\np := 1' });
    try {
      b.evaluate('x > 1');
      throw new Error('expected an error');
    } catch (e) {
      expect(e).toBeInstanceOf(RegoError);
      expect((e as RegoError).code).toBe('rego_unsafe_var_error');
    }
    expect(() => b.evaluate('data.t.p ==')).toThrow(RegoError);
  });
});
