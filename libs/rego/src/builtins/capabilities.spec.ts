/** OPA capabilities applied to a compile: listed builtins only, a tool's own builtins declared from the file. */
import { compile, parseCapabilities, RegoError } from '../index';
import { BUILTINS } from './registry';

const engine = [...BUILTINS.keys()].map((name) => ({ name }));
const tool = {
  name: 'acme.lookup',
  decl: { type: 'function', args: [{ type: 'string' }], result: { type: 'object' } },
  nondeterministic: true,
};

describe('capabilities', () => {
  it('declares a tool builtin: callable, type-checked, replaceable with `with`, implemented per evaluation', () => {
    const caps = parseCapabilities({ builtins: [...engine, tool] });
    const src = `package t
owner := acme.lookup("svc").owner
mocked := x if { x := owner with acme.lookup as {"owner": "ann"} }
mock_fn(_) := {"owner": "bob"}
by_fn := x if { x := owner with acme.lookup as mock_fn }`;
    const b = compile({ 'p.rego': src }, { capabilities: caps });
    expect(b.evalValue('data.t.mocked').value).toBe('ann');
    expect(b.evalValue('data.t.by_fn').value).toBe('bob');
    const impl = { 'acme.lookup': () => ({ owner: 'cat' }) };
    expect(b.evalValue('data.t.owner', { builtinImpls: impl }).value).toBe('cat');
    expect(() => b.evalValue('data.t.owner', { strictBuiltinErrors: true })).toThrow(/acme\.lookup: builtin not implemented/);
    expect(() => compile({ 'p.rego': 'package t\nx := acme.lookup(1)' }, { capabilities: caps })).toThrow(/acme\.lookup: invalid argument/);
  });

  it('removes builtins the file does not list, as OPA does (undefined function)', () => {
    const caps = parseCapabilities({ builtins: engine.filter((b) => b.name !== 'http.send' && b.name !== 'upper') });
    expect(compile({ 'p.rego': 'package t\nx := lower("A")' }, { capabilities: caps }).evalValue('data.t.x').value).toBe('a');
    expect(() => compile({ 'p.rego': 'package t\nx := upper("a")' }, { capabilities: caps })).toThrow(/undefined function upper/);
  });

  it('still refuses builtins nobody declared', () => {
    expect(() => compile({ 'p.rego': 'package t\nx := acme.lookup("a")' })).toThrow(/undefined function acme\.lookup/);
  });

  it('checks the file shape and gives different bundles different digests', () => {
    expect(() => parseCapabilities({ nope: 1 }, 'caps.json')).toThrow(RegoError);
    expect(() => parseCapabilities({ builtins: [{ name: 'a', decl: { type: 'string' } }] })).toThrow(/must be a function type/);
    const files = { 'p.rego': 'package t\nx := 1' };
    const a = compile(files, { capabilities: parseCapabilities({ builtins: engine }) });
    const b = compile(files, { capabilities: parseCapabilities({ builtins: [...engine, tool] }) });
    expect(a.digest).not.toBe(b.digest);
  });
});
