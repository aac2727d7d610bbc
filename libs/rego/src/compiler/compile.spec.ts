import { compile, RegoError, RegoErrors } from '../index';

function compileError(src: string, opts = {}): RegoError {
  try {
    compile({ 'p.rego': src }, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(RegoError);
    return e as RegoError;
  }
  throw new Error('expected a compile error');
}

function allErrors(e: RegoError): RegoError[] {
  return e instanceof RegoErrors ? e.errors : [e];
}

describe('compiler', () => {
  it('reorders bodies for safety as OPA does', () => {
    const b = compile({
      'p.rego': `package t
p contains y if {
  y = x + 1
  x := input.n[_]
}`,
    });
    expect(b.evalValue('data.t.p', { input: { n: [1, 2] } }).value).toEqual([2, 3]);
  });

  it('reports unsafe vars with location', () => {
    const e = compileError(`package t

p if {
  x > 1
}`);
    expect(e.code).toBe('rego_unsafe_var_error');
    expect(e.message).toBe('p.rego:4: rego_unsafe_var_error: var x is unsafe');
  });

  it('reports unsafe vars in heads and negations', () => {
    expect(compileError('package t\np[x] := 1 if { true }').code).toBe('rego_unsafe_var_error');
    expect(compileError('package t\np if { not q[x] ; x > 1 }\nq contains 1').code).toBe('rego_unsafe_var_error');
  });

  it('reports recursion', () => {
    const e = compileError(`package t
p if q
q if p`);
    expect(e.code).toBe('rego_recursion_error');
    expect(e.message).toContain('data.t.p');
  });

  it('reports recursion through functions', () => {
    expect(compileError('package t\nf(x) := f(x - 1) if x > 0').code).toBe('rego_recursion_error');
  });

  it('type-checks builtin arity and literal argument types', () => {
    const e1 = compileError('package t\np := count(1, 2, 3)');
    expect(e1.code).toBe('rego_type_error');
    expect(e1.message).toContain('count: arity mismatch');
    const e2 = compileError('package t\np := upper(1)');
    expect(e2.code).toBe('rego_type_error');
    expect(e2.message).toContain('upper: invalid argument(s)');
    expect(compileError('package t\np := nope(1)').message).toContain('undefined function nope');
  });

  it('rejects conflicting rule kinds and multiple defaults', () => {
    expect(compileError('package t\np := 1\np contains 2').code).toBe('rego_type_error');
    expect(compileError('package t\ndefault p := 1\ndefault p := 2').message).toContain('multiple default rules');
  });

  it('rejects re-assignment of a local', () => {
    const e = compileError('package t\np if { x := 1; x := 2 }');
    expect(e.code).toBe('rego_compile_error');
    expect(e.message).toContain('var x assigned above');
  });

  it('collects several errors', () => {
    const e = compileError('package t\np if { x > 1 }\nq if { y > 1 }');
    expect(allErrors(e)).toHaveLength(2);
  });

  it('reports unused imports in strict mode', () => {
    const src = 'package t\nimport data.lib.x\np := 1';
    expect(() => compile({ 'p.rego': src })).not.toThrow();
    const e = compileError(src, { strict: true });
    expect(e.code).toBe('rego_compile_error');
    expect(e.message).toContain('import data.lib.x unused');
  });

  it('resolves imports and rule names across packages', () => {
    const b = compile({
      'lib.rego': 'package lib.util\nlimit := 3\nbig(x) if x > limit',
      'main.rego': 'package main\nimport data.lib.util\nimport data.lib.util.limit as lim\nhuge := [n | some n in input; util.big(n)]\nl := lim',
    });
    expect(b.evalValue('data.main', { input: [1, 5, 9] }).value).toEqual({ huge: [5, 9], l: 3 });
  });

  it('computes a stable digest', () => {
    const a = compile({ 'a.rego': 'package a\np := 1', 'b.rego': 'package b\nq := 2' });
    const b = compile({ 'b.rego': 'package b\nq := 2', 'a.rego': 'package a\np := 1' });
    expect(a.digest).toBe(b.digest);
    expect(a.digest).not.toBe(compile({ 'a.rego': 'package a\np := 2' }).digest);
  });
});

describe('strict mode', () => {
  it('reports unused assignments, shadowed input and deprecated builtins', () => {
    const strict = { strict: true };
    expect(compileError('package t\np if { x := 1; true }', strict).message).toContain('assigned var x unused');
    expect(compileError('package t\np if { input := 1; input > 0 }', strict).message).toContain('must not shadow input');
    expect(compileError('package t\np := any([true])', strict).message).toContain('deprecated built-in');
    expect(() => compile({ 'p.rego': 'package t\np if { x := 1; x > 0 }' }, strict)).not.toThrow();
  });
});
