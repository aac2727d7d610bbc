/**
 * Sandbox specs. The sandbox runs in a child Node process (fixtures/drive-sandbox.ts explains why piscina
 * cannot run inside jest); each describe block sends its requests in one batch and checks the answers.
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { SandboxOptions } from './sandbox';
import { SandboxRequest, SandboxResult } from './protocol';

jest.setTimeout(180_000);

interface Step {
  result: SandboxResult;
  ms: number;
  threads: number;
}

function drive(options: SandboxOptions, steps: SandboxRequest[]): Step[] {
  const p = spawnSync(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), path.join(__dirname, 'fixtures', 'drive-sandbox.ts')], {
    input: JSON.stringify({ options, steps }),
    encoding: 'utf8',
    env: { ...process.env, TS_NODE_PROJECT: path.join(__dirname, '..', '..', '..', '..', 'tsconfig.json') },
    timeout: 170_000,
  });
  if (p.status !== 0) throw new Error(`driver failed (${p.status}): ${p.stderr}`);
  return JSON.parse(p.stdout) as Step[];
}

const POLICY = {
  'policy.rego': `package policy

import rego.v1

default allow := false

allow if {
	print("checking", count(input.items))
	every x in input.items { x > 0 }
}

double contains y if {
	some x in input.items
	y := x * 2
}
`,
};

const SLOW = {
  'slow.rego': `package slow

import rego.v1

r := numbers.range(1, 2000)

never if {
	some a in r
	some b in r
	some c in r
	a + b + c < 0
}
`,
};

const HUGE = {
  'big.rego': `package big

import rego.v1

pairs := [[a, b, "padding-to-make-each-entry-larger"] | some a in numbers.range(1, 20000); some b in numbers.range(1, 20000)]

n := count(pairs)
`,
};

const CACHED = { 'c.rego': 'package c\n\nimport rego.v1\n\nv := 42\n' };
const V0_BUNDLE = {
  '.manifest': '{"revision": "1", "rego_version": 0}',
  'gate/gate.rego': 'package gate\n\ndeny[msg] { input.user == "guest"; msg := sprintf("%s may not deploy", [input.user]) }\nlimit = data.limits.max\n',
  'limits/data.json': '{"max": 3}',
};
const AFTER: SandboxRequest = { files: POLICY, query: 'data.policy.allow', input: { items: [1] } };

describe('RegoSandbox with the engine', () => {
  let steps: Step[];
  beforeAll(() => {
    steps = drive({ minThreads: 1, maxThreads: 1, maxOldGenerationSizeMb: 96, defaultDeadlineMs: 60_000 }, [
      { files: POLICY, query: 'data.policy', input: { items: [1, 2] } }, // 0 normal
      { files: POLICY, query: 'some y in data.policy.double; y > 2', input: { items: [1, 2] } }, // 1 rows
      { files: { 'bad.rego': 'package bad\n\np if {\n' }, query: 'data.bad' }, // 2 parse error
      { files: CACHED, query: 'data.c.v' }, // 3 cache miss
      { files: CACHED, query: 'data.c.v' }, // 4 cache hit
      { files: SLOW, query: 'data.slow.never', deadlineMs: 500 }, // 5 deadline
      AFTER, // 6
      { files: HUGE, query: 'data.big.n' }, // 7 out of memory
      AFTER, // 8
      { files: V0_BUNDLE, bundle: true, query: 'data.gate', input: { user: 'guest' } }, // 9 bundle with manifest
      { files: V0_BUNDLE, query: 'data.gate' }, // 10 same files as plain modules: v1, refused
    ]);
  });

  it('evaluates a ref query to its value with prints', () => {
    expect(steps[0].result).toMatchObject({ ok: true, value: { allow: true, double: [2, 4] }, prints: ['checking 2'] });
  });

  it('evaluates a general query to binding rows', () => {
    const r = steps[1].result;
    expect(r.ok).toBe(true);
    expect(r.ok && r.results).toHaveLength(1);
    expect(r.ok && r.results![0].y).toBe(4);
  });

  it('returns coded compile errors with their location', () => {
    expect(steps[2].result).toMatchObject({ ok: false, error: { code: 'rego_parse_error', location: { file: 'bad.rego' } } });
  });

  it('serves a repeated bundle from the worker digest cache', () => {
    expect(steps[3].result).toMatchObject({ ok: true, value: 42, cached: false });
    expect(steps[4].result).toMatchObject({ ok: true, value: 42, cached: true, compileMs: 0 });
    const [a, b] = [steps[3].result, steps[4].result];
    expect(a.ok && b.ok && a.digest === b.digest).toBe(true);
  });

  it('stops a policy that runs past its deadline with policy_timeout, and keeps serving', () => {
    // The policy takes 8e9 steps, far beyond the driver's own time limit: an answer at all means it was stopped,
    // and policy_timeout says it was the deadline that stopped it (no duration is asserted).
    expect(steps[5].result).toMatchObject({ ok: false, error: { code: 'policy_timeout' } });
    expect(steps[6].result).toMatchObject({ ok: true, value: true });
  });

  it('compiles bundle requests with their manifest rego_version and data files', () => {
    expect(steps[9].result).toMatchObject({ ok: true, value: { deny: ['guest may not deploy'], limit: 3 } });
    expect(steps[10].result).toMatchObject({ ok: false, error: { code: 'rego_parse_error' } });
  });

  it('contains a policy that exhausts memory, replacing the worker', () => {
    expect(steps[7].result).toMatchObject({ ok: false, error: { code: 'policy_resource_limit' } });
    expect(steps[8].result).toMatchObject({ ok: true, value: true });
    expect(steps[8].threads).toBe(1);
  });
});

describe('RegoSandbox with a worker that ignores its deadline', () => {
  it('terminates the worker, reports policy_timeout and starts a fresh one', () => {
    const steps = drive({ workerFile: path.join(__dirname, 'fixtures', 'stuck-worker.js'), maxThreads: 1, graceMs: 50 }, [
      { files: {}, query: 'before' },
      { files: {}, query: 'hang', deadlineMs: 200 },
      { files: {}, query: 'after' },
    ]);
    expect(steps[0].result).toMatchObject({ ok: true, value: 'before' });
    // The worker loops forever: an answer at all means the host terminated it.
    expect(steps[1].result).toMatchObject({ ok: false, error: { code: 'policy_timeout' } });
    expect(steps[2].result).toMatchObject({ ok: true, value: 'after' });
  });
});

describe('RegoSandbox with the options the service gives it (heap cap 256 MB, no young generation cap of its own)', () => {
  let steps: Step[];
  beforeAll(() => {
    steps = drive({ minThreads: 1, maxThreads: 1, defaultDeadlineMs: 60_000 }, [{ files: HUGE, query: 'data.big.n' }, AFTER]);
  });

  it('stops a policy that exhausts memory in its worker, and the process goes on (on Node 24 it once aborted the process)', () => {
    expect(steps[0].result).toMatchObject({ ok: false, error: { code: 'policy_resource_limit' } });
    expect(steps[1].result).toMatchObject({ ok: true, value: true });
    expect(steps[1].threads).toBe(1);
  });
});
