/**
 * The engine against OPA's own compiled WebAssembly of the same policy:
 * `npx ts-node --transpile-only bench/rego/wasm.ts --from <dir> [--runs N] [--users N]`.
 *
 * No `opa` binary can be run here, so the WebAssembly cannot be built; it is read, with its source, from a public
 * repository that commits both (christophwille/dotnet-opa-wasm, `sample-policies/rbac.rego` and `rbac.wasm`, built
 * there with `opa build -t wasm -e app/rbac`): `--from` is a checkout of it, or any folder holding those two files
 * (directly or under `sample-policies/`). Nothing of it is copied into this project. The policy is OPA's
 * playground RBAC example; the data (users, roles, grants) is generated here, about a megabyte, and given to both
 * once; each run evaluates `data.app.rbac` for 200 different requests on each side, alternately.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compile } from '../../libs/rego/src';
import { median, nowMs, pairedRounds } from './timing';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function find(dir: string, name: string): string {
  for (const p of [path.join(dir, name), path.join(dir, 'sample-policies', name)]) if (fs.existsSync(p)) return p;
  throw new Error(`${name} not found under ${dir}`);
}

/** Deterministic data: `users` users with 1-3 roles among `users / 10` roles, each role granting 5 actions. */
function rbacData(users: number): { user_roles: Record<string, string[]>; role_grants: Record<string, Array<{ action: string; type: string }>> } {
  let a = 7;
  const rnd = () => {
    a = (a * 1103515245 + 12345) & 0x7fffffff;
    return a / 0x7fffffff;
  };
  const roles = Math.max(10, Math.floor(users / 10));
  const actions = ['read', 'write', 'update', 'delete', 'adopt'];
  const types = ['dog', 'cat', 'bird', 'fish', 'horse', 'lizard'];
  const user_roles: Record<string, string[]> = {};
  for (let u = 0; u < users; u++) {
    const n = 1 + Math.floor(rnd() * 3);
    const rs = new Set<string>();
    for (let i = 0; i < n; i++) rs.add(u % 997 === 0 ? 'admin' : `role-${Math.floor(rnd() * roles)}`);
    user_roles[`user-${u}`] = [...rs];
  }
  const role_grants: Record<string, Array<{ action: string; type: string }>> = {};
  for (let r = 0; r < roles; r++) {
    role_grants[`role-${r}`] = Array.from({ length: 5 }, () => ({ action: actions[Math.floor(rnd() * actions.length)], type: types[Math.floor(rnd() * types.length)] }));
  }
  return { user_roles, role_grants };
}

async function main(): Promise<void> {
  const from = arg('--from');
  if (!from) {
    console.error('usage: wasm.ts --from <checkout of christophwille/dotnet-opa-wasm, or a folder with rbac.rego and rbac.wasm>');
    process.exit(2);
  }
  const runs = Number(arg('--runs') ?? 15);
  const users = Number(arg('--users') ?? 12000);
  const src = fs.readFileSync(find(from, 'rbac.rego'), 'utf8');
  const wasm = fs.readFileSync(find(from, 'rbac.wasm'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { loadPolicy } = require('@open-policy-agent/opa-wasm') as {
    loadPolicy(b: Buffer): Promise<{ setData(d: unknown): void; evaluate(input: unknown, entrypoint?: string): Array<{ result: unknown }> }>;
  };
  const data = rbacData(users);
  const requests = Array.from({ length: 200 }, (_, i) => ({ user: `user-${(i * 61) % users}`, action: ['read', 'write', 'adopt'][i % 3], type: ['dog', 'cat', 'fish'][i % 3] }));

  const policy = await loadPolicy(wasm);
  const t0 = nowMs();
  policy.setData(data);
  const setDataMs = nowMs() - t0;
  const bundle = compile({ 'rbac.rego': src });

  // both must agree before anything is timed
  for (const r of requests) {
    const w = JSON.stringify((policy.evaluate(r, 'app/rbac')[0]?.result as { allow?: unknown })?.allow);
    const e = JSON.stringify(bundle.evalValue('data.app.rbac.allow', { input: r, data }).value);
    if (w !== e) throw new Error(`engine and wasm disagree on ${JSON.stringify(r)}: wasm ${w}, engine ${e}`);
  }

  const wasmRun = () => {
    for (const r of requests) policy.evaluate(r, 'app/rbac');
  };
  const engineRun = () => {
    for (const r of requests) bundle.evalValue('data.app.rbac', { input: r, data });
  };
  const { ta: te, tb: tw, ratios } = pairedRounds(engineRun, wasmRun, runs);
  const kib = (JSON.stringify(data).length / 1024).toFixed(0);
  const per = (ms: number) => `${((ms / requests.length) * 1000).toFixed(1)} µs`;
  console.log(`node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}; rbac policy, ${users} users (${kib} KiB data), ${requests.length} requests per run, ${runs} paired runs`);
  console.log(`OPA wasm (setData once: ${setDataMs.toFixed(0)} ms): ${per(median(tw))} per request`);
  console.log(`engine: ${per(median(te))} per request; median ratio engine/wasm ${median(ratios).toFixed(2)} (target <= 1)`);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
