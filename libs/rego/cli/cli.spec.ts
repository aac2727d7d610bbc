/**
 * End-to-end specs of `rego eval` and `rego test` against real files in temp dirs, run in-process through
 * runCli (one spec spawns the real entry point to check the wiring and exit code).
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { BufferIo } from './io';
import { runCli } from './run-cli';
import { makeTree, removeTree } from './temp-dir';

jest.setTimeout(60_000);

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const io = new BufferIo();
  const code = await runCli(args, io, cwd);
  return { code, out: io.stdout, err: io.stderr };
}

const POLICY = `package policy

import rego.v1

default allow := false

allow if count(violations) == 0

violations contains msg if {
	some t in input.trails
	not t.ok
	msg := sprintf("%s is not ok", [t.name])
}

owner := data.teams.alpha.owner

limit := data.limit
`;

describe('rego eval', () => {
  let root: string;
  beforeEach(() => {
    root = makeTree({
      'bundle/policy/policy.rego': POLICY,
      'bundle/data.json': '{"limit": 3}',
      'bundle/teams/alpha/data.json': '{"owner": "ann"}',
      'input.json': '{"trails": [{"name": "a", "ok": true}, {"name": "b", "ok": false}]}',
      'bad/p.rego': 'package bad\n\nimport rego.v1\n\np if {\n',
      'conflict/c.rego': 'package c\n\nimport rego.v1\n\nv := x if {\n\tsome x in [1, 2]\n}\n',
    });
  });
  afterEach(() => removeTree(root));

  it('prints the value of a ref query, with data.json mounted at its folder path', async () => {
    const r = await cli(['eval', '-d', 'bundle', '-i', 'input.json', 'data.policy'], root);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ allow: false, violations: ['b is not ok'], owner: 'ann', limit: 3 });
  });

  it('prints binding rows for a general query', async () => {
    const r = await cli(['eval', '-d', 'bundle', '-i', 'input.json', 'some t in input.trails; t.ok; n := t.name'], root);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.out) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(1);
    expect(rows[0].n).toBe('a');
  });

  it('reports undefined on stderr and prints nothing on stdout', async () => {
    const r = await cli(['eval', '-d', 'bundle', 'data.policy.nothing'], root);
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/undefined/);
  });

  it('prints parse errors as file:row:col: code: message and exits 1', async () => {
    const r = await cli(['eval', '-d', 'bad', 'data.bad'], root);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(new RegExp(`^${path.join('bad', 'p.rego').replace(/[.\\/]/g, '\\$&')}:\\d+:\\d+: rego_parse_error: .+`, 'm'));
  });

  it('prints evaluation errors with their code', async () => {
    const r = await cli(['eval', '-d', 'conflict', 'data.c.v'], root);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/c\.rego:\d+:\d+: eval_conflict_error: /);
  });

  it('prints compile time and min/median evaluation time with --repeat', async () => {
    const r = await cli(['eval', '-d', 'bundle', '-i', 'input.json', '--repeat', '5', 'data.policy.allow'], root);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe('false');
    expect(r.err).toMatch(/compile: [\d.]+ (ms|µs)/);
    expect(r.err).toMatch(/eval: min [\d.]+ (ms|µs), median [\d.]+ (ms|µs) over 5 runs/);
  });

  it('exits 2 on usage errors', async () => {
    expect((await cli(['eval', '-d', 'bundle'], root)).code).toBe(2);
    expect((await cli(['frobnicate'], root)).code).toBe(2);
    expect((await cli(['eval', '--nope', 'data'], root)).err).toMatch(/unknown flag/);
  });

  it('runs as a real process through main.ts', () => {
    const main = path.join(__dirname, 'main.ts');
    const p = spawnSync(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), main, 'eval', '-d', 'bundle', 'data.policy.owner'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, TS_NODE_PROJECT: path.join(__dirname, '..', '..', '..', 'tsconfig.json') },
    });
    expect(p.stderr).toBe('');
    expect(p.status).toBe(0);
    expect(p.stdout.trim()).toBe('"ann"');
  });
});

describe('rego test', () => {
  let root: string;
  beforeEach(() => {
    root = makeTree({
      'p/policy.rego': POLICY,
      'p/policy_test.rego': `package policy_test

import data.policy
import rego.v1

test_allow_when_all_ok if {
	policy.allow with input as {"trails": [{"name": "a", "ok": true}]}
}

test_denies_bad_trail if {
	not policy.allow with input as {"trails": [{"name": "b", "ok": false}]}
}

test_owner_from_data if policy.owner == "ann"

test_wrong_on_purpose if {
	print("checking limit")
	policy.limit == 4
}

conflicting := x if {
	some x in [1, 2]
}

test_errors if conflicting == 1
`,
      'p/teams/alpha/data.json': '{"owner": "ann"}',
      'p/data.json': '{"limit": 3}',
      'broken/b.rego': 'package b\n\ntest_x if {\n',
    });
  });
  afterEach(() => removeTree(root));

  it('runs test_ rules, prints failing ones and a closing count, exits 1 on failure', async () => {
    const r = await cli(['test', 'p'], root);
    expect(r.code).toBe(1);
    const lines = r.out.trim().split('\n');
    expect(lines[lines.length - 1]).toBe('3 passed, 2 failed');
    expect(r.out).toMatch(/policy_test\.rego:16: data\.policy_test\.test_wrong_on_purpose: FAIL/);
    expect(r.out).toMatch(/checking limit/);
    expect(r.out).toMatch(/data\.policy_test\.test_errors: ERROR .*eval_conflict_error/);
    expect(r.out).not.toMatch(/test_allow_when_all_ok/);
  });

  it('filters with --run and lists passing tests with -v', async () => {
    const r = await cli(['test', 'p', '--run', 'allow|owner', '-v'], root);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/data\.policy_test\.test_allow_when_all_ok: PASS/);
    expect(r.out).toMatch(/data\.policy_test\.test_owner_from_data: PASS/);
    expect(r.out.trim().split('\n').pop()).toBe('2 passed, 0 failed');
  });

  it('reports compile errors and exits 1', async () => {
    const r = await cli(['test', 'broken'], root);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/b\.rego:\d+:\d+: rego_parse_error: /);
  });
});

describe('rego eval/test: Rego v0, capabilities and bundles', () => {
  let root: string;
  const V0 = `package legacy

deny[msg] {
	input.user == "guest"
	msg := "guests may not deploy"
}

allow { not deny[_] }
`;
  beforeEach(() => {
    root = makeTree({
      'v0/legacy.rego': V0,
      'v0/legacy_test.rego': 'package legacy\n\ntest_guest { deny["guests may not deploy"] with input as {"user": "guest"} }\ntest_admin { allow with input as {"user": "admin"} }\n',
      'tool/p.rego': 'package tool\n\nimport rego.v1\n\nowner := acme.lookup("svc").owner\n',
      'tool/p_test.rego': 'package tool\n\nimport rego.v1\n\ntest_owner if owner == "ann" with acme.lookup as {"owner": "ann"}\n',
      'caps.json': JSON.stringify({ builtins: [{ name: 'eq' }, { name: 'equal' }, { name: 'acme.lookup', decl: { type: 'function', args: [{ type: 'string' }], result: { type: 'object' } } }] }),
      'bundle/.manifest': JSON.stringify({ revision: '7', rego_version: 0 }),
      'bundle/legacy.rego': V0,
      'bundle/teams/data.json': '{"size": 2}',
    });
  });
  afterEach(() => removeTree(root));

  it('parses Rego v0 with --v0-compatible (and refuses it without)', async () => {
    const r = await cli(['eval', '--v0-compatible', '-d', 'v0', 'data.legacy.allow'], root);
    expect(r.out.trim()).toBe('true');
    expect((await cli(['eval', '-d', 'v0', 'data.legacy'], root)).err).toMatch(/rego_parse_error: `if` keyword is required/);
    const t = await cli(['test', '--v0-compatible', 'v0'], root);
    expect(t.out.trim().split('\n').pop()).toBe('2 passed, 0 failed');
  });

  it('reads custom builtins from --capabilities, mockable in tests; unlisted builtins are undefined', async () => {
    expect((await cli(['test', 'tool'], root)).err).toMatch(/undefined function acme\.lookup/);
    const t = await cli(['test', '--capabilities', 'caps.json', 'tool'], root);
    expect(t.out.trim().split('\n').pop()).toBe('1 passed, 0 failed');
    const e = await cli(['eval', '--capabilities', 'caps.json', 'x := upper("a")'], root);
    expect(e.err).toMatch(/rego_type_error: undefined function upper/);
    expect((await cli(['eval', '--capabilities', 'missing.json', 'data'], root)).err).toMatch(/missing\.json: no such file/);
  });

  it('loads a bundle folder with -b, honouring its manifest rego_version and mounting its data', async () => {
    const r = await cli(['eval', '-b', 'bundle', 'data'], root);
    expect(r.err).toBe('');
    expect(JSON.parse(r.out)).toEqual({ legacy: { allow: true, deny: [] }, teams: { size: 2 } });
    const t = await cli(['test', '-b', 'bundle'], root);
    expect(t.out.trim().split('\n').pop()).toBe('0 passed, 0 failed');
  });
});
