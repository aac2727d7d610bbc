/** Rego v0 syntax (OPA's `--v0-compatible`, a bundle's `rego_version: 0`), as OPA 1.x parses it in that mode. */
import { compile, RegoError } from '../index';
import { parseModule } from './parser';

const v0 = (src: string) => parseModule(src, 'v0.rego', { regoVersion: 0 });

function value(src: string, ref: string, input?: unknown): unknown {
  return compile({ 'p.rego': src }, { regoVersion: 0 }).evalValue(ref, { input }).value;
}

describe('parser: Rego v0', () => {
  it('reads rule bodies without `if`, partial sets `p[x] { }` and objects `p[k] = v { }`', () => {
    const src = `package t
allow { input.user == "root" }
deny[msg] { msg := sprintf("no %v", [input.user]) }
by_name[n] = 1 { n := input.user }
f(x) = y { y := x + 1 }
g(x) { x > 1 }
default d = false
`;
    expect(value(src, 'data.t', { user: 'ann' })).toEqual({ deny: ['no ann'], by_name: { ann: 1 }, d: false });
    expect(value(src, 'data.t.allow', { user: 'root' })).toBe(true);
  });

  it('gives each body of `p { a } { b }` the same head (an OR of bodies)', () => {
    const src = 'package t\np { input.x == 1 } { input.x == 2 }\nq[v] { v := 1 } { v := 2 }\n';
    expect(value(src, 'data.t.p', { x: 2 })).toBe(true);
    expect(value(src, 'data.t.p', { x: 3 })).toBeUndefined();
    expect(value(src, 'data.t.q', {})).toEqual([1, 2]);
    expect(v0(src).rules).toHaveLength(4);
  });

  it('makes `p.q { }` and a body-less `p[x]` partial sets of p, and `a.b.c` a complete rule', () => {
    const src = 'package t\ns.one { true }\ns["two"]\na.b.c\n';
    expect(value(src, 'data.t', {})).toEqual({ s: ['one', 'two'], a: { b: { c: true } } });
  });

  it('treats in/every/if/contains as names unless future.keywords imports them', () => {
    expect(value('package t\nif := 1\ncontains := 2\n', 'data.t', {})).toEqual({ if: 1, contains: 2 });
    const withIn = 'package t\nimport future.keywords.in\np { 1 in input }\n';
    expect(value(withIn, 'data.t.p', [1])).toBe(true);
    const all = 'package t\nimport future.keywords\nxs contains x if { some x in input }\nok if { every x in input { x > 0 } }\n';
    expect(value(all, 'data.t', [1, 2])).toEqual({ xs: [1, 2], ok: true });
    expect(() => v0('package t\np { 1 in input }\n')).toThrow(RegoError);
  });

  it('holds a v0 module that imports rego.v1 to v1 syntax', () => {
    expect(() => v0('package t\nimport rego.v1\np { true }\n')).toThrow(/`if` keyword is required/);
    expect(v0('package t\nimport rego.v1\np if { true }\n').regoVersion).toBe(1);
    expect(v0('package t\np { true }\n').regoVersion).toBe(0);
  });

  it('lets a v0 import replace an earlier one of the same name, as OPA v0 does', () => {
    const src = 'package t\nimport data.a.x\nimport data.b.x\np = x\n';
    expect(compile({ 'p.rego': src }, { regoVersion: 0 }).evalValue('data.t.p', { data: { a: { x: 1 }, b: { x: 2 } } }).value).toBe(2);
  });

  it('still refuses v0 syntax in v1 (the default) with OPA’s message', () => {
    expect(() => parseModule('package t\np { true }\n', 'v1.rego')).toThrow(/`if` keyword is required before rule body/);
  });

  it('picks the version per file with fileRegoVersions', () => {
    const b = compile({ 'old.rego': 'package a\np { true }\n', 'new.rego': 'package b\nq if data.a.p\n' }, { fileRegoVersions: { 'old.rego': 0 } });
    expect(b.evalValue('data.b.q').value).toBe(true);
  });
});

describe('parser: imports between rules', () => {
  it('accepts an import after rules, for the whole module, as OPA does', () => {
    const src = 'package t\n\nimport rego.v1\n\nx := lib.v\n\nimport data.lib\n';
    expect(compile({ 'p.rego': src }).evalValue('data.t.x', { data: { lib: { v: 3 } } }).value).toBe(3);
  });
});

describe('checks OPA applies to v1 modules only (or in strict mode)', () => {
  it('refuses deprecated builtins and shadowed input/data in v1, accepts them in v0', () => {
    const v1 = 'package t\nx := any([true])\n';
    expect(() => compile({ 'p.rego': v1 })).toThrow(/deprecated built-in function calls in expression: any/);
    expect(() => compile({ 'p.rego': 'package t\np if {\n\tinput := 1\n\tinput == 1\n}\n' })).toThrow(/variables must not shadow input/);
    expect(value('package t\nx = any([true])\ny = re_match("a", "a")\n', 'data.t', {})).toEqual({ x: true, y: true });
    expect(() => compile({ 'p.rego': 'package t\nx = any([true])\n' }, { regoVersion: 0, strict: true })).toThrow(/deprecated built-in/);
  });
});
