import * as path from 'path';
import { LoadError, loadPaths } from './load-paths';
import { makeTree, removeTree } from './temp-dir';

describe('loadPaths', () => {
  let root: string;
  afterEach(() => removeTree(root));

  it('loads every .rego file and mounts data.json at its folder path relative to the root', () => {
    root = makeTree({
      'bundle/policy/main.rego': 'package policy\n',
      'bundle/policy/lib/util.rego': 'package policy.lib\n',
      'bundle/data.json': '{"top": 1}',
      'bundle/teams/alpha/data.json': '{"owner": "ann"}',
      'bundle/teams/beta/data.yaml': 'owner: bob\nsize: 3\n',
      'bundle/policy/input.json': '{"ignored": true}',
      'bundle/.git/x.rego': 'package hidden\n',
    });
    const loaded = loadPaths(['bundle'], root);
    expect(Object.keys(loaded.files).sort()).toEqual([
      path.join('bundle', 'policy', 'lib', 'util.rego'),
      path.join('bundle', 'policy', 'main.rego'),
    ]);
    expect(loaded.data).toEqual({ top: 1, teams: { alpha: { owner: 'ann' }, beta: { owner: 'bob', size: 3 } } });
  });

  it('mounts a data file given directly at the root and merges several -d roots', () => {
    root = makeTree({ 'one.json': '{"a": {"x": 1}}', 'two/b/data.json': '{"y": 2}', 'two/p.rego': 'package p\n' });
    const loaded = loadPaths(['one.json', 'two'], root);
    expect(loaded.data).toEqual({ a: { x: 1 }, b: { y: 2 } });
    expect(Object.keys(loaded.files)).toEqual([path.join('two', 'p.rego')]);
  });

  it('mounts non-object documents below the root and merges objects at the same path', () => {
    root = makeTree({ 'd/list/data.json': '[1, 2]', 'd/m/data.json': '{"a": {"b": 1}}', 'e/m/data.json': '{"a": {"c": 2}}' });
    expect(loadPaths(['d', 'e'], root).data).toEqual({ list: [1, 2], m: { a: { b: 1, c: 2 } } });
  });

  it('reports conflicting documents, bad JSON and missing paths', () => {
    root = makeTree({ 'a/x/data.json': '{"k": 1}', 'b/x/data.json': '{"k": 2}', 'bad/data.json': '{nope' });
    expect(() => loadPaths(['a', 'b'], root)).toThrow(/conflicts/);
    expect(() => loadPaths(['bad'], root)).toThrow(LoadError);
    expect(() => loadPaths(['missing'], root)).toThrow(/no such file/);
  });

  it('keeps keys such as __proto__ as own data', () => {
    root = makeTree({ 'data.json': '{"__proto__": {"polluted": true}}' });
    const data = loadPaths(['data.json'], root).data;
    expect(Object.prototype.hasOwnProperty.call(data, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
