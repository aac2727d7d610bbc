/** Bundles as files: modules, data mounted at folder paths, and the manifest's rego_version / file_rego_versions / roots. */
import { compileBundle, RegoError } from './index';
import { globMatch, readBundle } from './bundle';

describe('compileBundle', () => {
  it('mounts data.json / data.yaml at their folder path and evaluates with the bundle data', () => {
    const b = compileBundle({
      'policy/main.rego': 'package policy\nowner := data.teams.alpha.owner\nlimit := data.limit\n',
      'data.json': '{"limit": 3}',
      'teams/alpha/data.yaml': 'owner: ann\n',
      'teams/alpha/fixture.json': '{"ignored": true}',
    });
    expect(b.evalValue('data.policy').value).toEqual({ owner: 'ann', limit: 3 });
    expect(b.data).toEqual({ limit: 3, teams: { alpha: { owner: 'ann' } } });
    // an evaluation's data replaces the bundle's top-level keys
    expect(b.evalValue('data.policy.limit', { data: { limit: 9 } }).value).toBe(9);
    expect(b.evalValue('data.policy.owner', { data: { limit: 9 } }).value).toBe('ann');
  });

  it('reads rego_version and per-file file_rego_versions (exact paths and globs, with or without a leading /)', () => {
    const files = {
      '.manifest': JSON.stringify({ revision: 'r1', rego_version: 0, file_rego_versions: { '/v1/*.rego': 1, 'v1/legacy.rego': 0 } }),
      'old.rego': 'package old\nallow { true }\ndeny[m] { m := "x" }\n',
      'v1/new.rego': 'package new\nallow if data.old.allow\n',
      'v1/legacy.rego': 'package legacy\np { true }\n',
    };
    const b = compileBundle(files);
    expect(b.evalValue('data.new.allow').value).toBe(true);
    expect(b.evalValue('data.old.deny').value).toEqual(['x']);
    expect(b.evalValue('data.legacy.p').value).toBe(true);
    expect(b.manifest?.revision).toBe('r1');
    expect(readBundle(files).regoVersions).toEqual({ 'old.rego': 0, 'v1/legacy.rego': 0, 'v1/new.rego': 1 });
  });

  it('uses the caller’s regoVersion for modules the manifest says nothing about; the manifest wins otherwise', () => {
    const v0 = { 'a.rego': 'package a\np { true }\n' };
    expect(() => compileBundle(v0)).toThrow(/`if` keyword is required/);
    expect(compileBundle(v0, { regoVersion: 0 }).evalValue('data.a.p').value).toBe(true);
    expect(() => compileBundle({ ...v0, '.manifest': '{"rego_version": 1}' }, { regoVersion: 0 })).toThrow(/`if` keyword is required/);
  });

  it('enforces manifest roots for packages and data', () => {
    const man = JSON.stringify({ roots: ['acme/policies', 'acme/data'] });
    expect(compileBundle({ '.manifest': man, 'p.rego': 'package acme.policies.x\ny := 1\n', 'acme/data/data.json': '{"k": 1}' }).evalValue('data.acme.policies.x.y').value).toBe(1);
    expect(() => compileBundle({ '.manifest': man, 'p.rego': 'package other\ny := 1\n' })).toThrow(/do not permit 'package other'/);
    expect(() => compileBundle({ '.manifest': man, 'data.json': '{"acme": {"data": {}, "x": 1}}' })).toThrow(/do not permit data at path '\/acme\/x'/);
  });

  it('reports bad manifests and conflicting data as coded errors', () => {
    expect(() => compileBundle({ '.manifest': '{"rego_version": 2}' })).toThrow(RegoError);
    expect(() => compileBundle({ '.manifest': 'nope' })).toThrow(/\.manifest/);
    expect(() => compileBundle({ 'data.json': '{"a": 1}', 'a/data.json': '{"b": 1}' })).toThrow(/conflicts/);
  });

  it('matches globs as Go’s path.Match does', () => {
    expect(globMatch('v1/*.rego', 'v1/a.rego')).toBe(true);
    expect(globMatch('v1/*.rego', 'v1/sub/a.rego')).toBe(false);
    expect(globMatch('v?/[ab].rego', 'v1/b.rego')).toBe(true);
    expect(globMatch('v?/[^ab].rego', 'v1/b.rego')).toBe(false);
  });
});
