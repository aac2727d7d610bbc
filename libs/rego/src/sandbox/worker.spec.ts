/** The worker's request handling, called in-process (no thread): bundle and data caches, coded errors. */
import * as path from 'path';
import evaluateTask from './worker';
import { bundleDigest } from './digest';
import { WorkerTask } from './protocol';

function task(files: Record<string, string>, extra: Partial<WorkerTask> = {}): WorkerTask {
  return {
    files,
    digest: bundleDigest(files),
    query: 'data.p.v',
    hasData: true,
    deadlineAt: Date.now() + 10_000,
    cacheSize: 4,
    dataCacheSize: 2,
    niceness: 0,
    ...extra,
  };
}

const FILES = { 'p.rego': 'package p\n\nimport rego.v1\n\nv := data.limit + 1\n' };

describe('sandbox worker', () => {
  it('compiles once per digest and answers a files-less task from its cache', () => {
    const first = evaluateTask(task(FILES, { data: { limit: 1 } }));
    expect(first).toMatchObject({ ok: true, value: 2, cached: false });
    const again = evaluateTask({ ...task(FILES, { data: { limit: 2 } }), files: undefined });
    expect(again).toMatchObject({ ok: true, value: 3, cached: true, compileMs: 0 });
  });

  it('asks for the files when it has not seen the digest', () => {
    const other = { 'p.rego': FILES['p.rego'] + '\nw := 1\n' };
    expect(evaluateTask({ ...task(other), files: undefined })).toEqual({ missing: true });
  });

  it('keeps data documents by key', () => {
    expect(evaluateTask(task(FILES, { dataKey: 'd1', data: { limit: 10 } }))).toMatchObject({ ok: true, value: 11 });
    expect(evaluateTask(task(FILES, { dataKey: 'd1', hasData: false }))).toMatchObject({ ok: true, value: 11 });
    expect(evaluateTask(task(FILES, { dataKey: 'unknown', hasData: false }))).toEqual({ missing: true });
  });

  it('returns compile and evaluation errors as coded data', () => {
    const bad = { 'bad.rego': 'package bad\n\np if {\n' };
    const r = evaluateTask({ ...task(bad), query: 'data.bad' });
    expect(r).toMatchObject({ ok: false, error: { code: 'rego_parse_error', location: { file: 'bad.rego' } } });
    const conflict = { 'c.rego': 'package c\n\nimport rego.v1\n\nv := x if {\n\tsome x in [1, 2]\n}\n' };
    expect(evaluateTask({ ...task(conflict), query: 'data.c.v' })).toMatchObject({ ok: false, error: { code: 'eval_conflict_error' } });
  });

  it('reports policy_timeout when the deadline already passed', () => {
    expect(evaluateTask(task(FILES, { data: { limit: 1 }, deadlineAt: Date.now() - 1 }))).toMatchObject({
      ok: false,
      error: { code: 'policy_timeout' },
    });
  });

  it('passes the step budget to the engine', () => {
    const loop = { 'l.rego': 'package l\n\nimport rego.v1\n\nm if {\n\tsome a in numbers.range(1, 300)\n\tsome b in numbers.range(1, 300)\n\ta + b < 0\n}\n' };
    expect(evaluateTask({ ...task(loop), query: 'data.l.m', maxSteps: 1000 })).toMatchObject({
      ok: false,
      error: { code: 'policy_resource_limit' },
    });
  });

  it('compiles with the custom builtins of the configured module', () => {
    const files = { 'b.rego': 'package b\n\nimport rego.v1\n\nv := veritrail.double(21)\n' };
    const builtinsModule = path.join(__dirname, 'fixtures', 'custom-builtins.js');
    expect(evaluateTask({ ...task(files), query: 'data.b.v', builtinsModule })).toMatchObject({ ok: true, value: 42 });
  });
});
