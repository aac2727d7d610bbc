/**
 * Audit package benchmark (issue 25 "Performance": a trail with 1,000 attestations and 100 MB of attachments is
 * streamed at >= 50 MB/s with RSS growth <= 100 MB). Run: `npm run bench -- audit-package [--attestations N]
 * [--attached N] [--mb N] [--rounds N] [--md]`.
 *
 * Against the real service (dist/src/main.js) and an embedded PostgreSQL: one trail gets `--attestations` generic
 * attestations, `--attached` of them with a `--mb` MB attachment of random (incompressible) bytes. Once the log's
 * checkpoint covers them, the package is downloaded `--rounds` times; each round reports the bytes streamed per
 * second and the service's RSS growth (peak during the download, sampled every 20 ms, minus RSS just before).
 *
 * Builds side by side (paired rounds, for a machine whose load drifts): `--main <A>/src/main.js --main
 * <B>/src/main.js` (copies of `dist/` inside the project folder, e.g. `bench/.work/`, as for bench/ingest/compare.ts).
 * The trail is recorded once, through A; every build then runs as its own service on that same database and
 * DATA_DIR (idle but for its downloads), and each round downloads the package from each build, in an order that
 * turns each round. `--cpu-prof <dir>` runs every service under `--cpu-prof` (profiles written there at the end).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { ChildProcess, spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { cpuSeconds, machine, request, Stack, startStack } from '../ingest/harness';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ATTESTATIONS = arg('attestations', 1000);
const ATTACHED = arg('attached', 100);
const MB = arg('mb', 1);
const ROUNDS = arg('rounds', 3);
const MD = args.includes('--md');
const MAINS = args.flatMap((a, i) => (a === '--main' && args[i + 1] ? [args[i + 1]] : []));
const CPU_PROF = args.includes('--cpu-prof') ? path.resolve(args[args.indexOf('--cpu-prof') + 1]) : undefined;
const NODE_ARGS = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [];
const BOUNDARY = '----veritrail-audit-' + randomBytes(8).toString('hex');

function form(dataJson: string, file?: Buffer): Buffer {
  const parts: Buffer[] = [Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="data_json"\r\n\r\n${dataJson}\r\n`)];
  if (file) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="attachment_file"; filename="evidence.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`), file, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function download(url: string, apiKey: string): Promise<{ bytes: number; ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    http.get(url, { headers: { Authorization: `Bearer ${apiKey}` } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ bytes, ms: Number(process.hrtime.bigint() - started) / 1e6, status: res.statusCode ?? 0 }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

interface Build {
  name: string;
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
}

/** Another build as a second service on the stack's database and DATA_DIR (same org, same signing key). */
async function startBuild(stack: Stack, name: string, main: string): Promise<Build> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const baseUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [...NODE_ARGS, path.resolve(main)], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: stack.dbUrl,
      DATA_DIR: stack.dataDir,
      ADMIN_TOKEN: stack.adminToken,
      LOG_LEVEL: 'warn',
      PUBLIC_BASE_URL: baseUrl,
      RATE_LIMIT_REQUESTS: '0',
      LOG_CHECKPOINT_INTERVAL_MS: '200',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.once('exit', () => child.exitCode === null && child.kill('SIGKILL'));
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${name}: service exited with code ${child.exitCode}`);
    const up = await request(`${baseUrl}/health`).catch(() => ({ status: 0 }));
    if (up.status === 200) break;
    await pause(200);
  }
  return {
    name,
    pid: child.pid!,
    baseUrl,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

async function main(): Promise<void> {
  const stack = await startStack({ main: MAINS[0], nodeArgs: NODE_ARGS, env: { LOG_CHECKPOINT_INTERVAL_MS: '200' } });
  const others: Build[] = [];
  const auth = { Authorization: `Bearer ${stack.apiKey}` };
  const api = `${stack.baseUrl}/api/v2`;
  try {
    const flow = await request(`${api}/flows/${stack.orgName}`, { method: 'PUT', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'bench' }) });
    if (flow.status !== 201) throw new Error(`flow: ${flow.status} ${flow.body}`);
    const trail = await request(`${api}/trails/${stack.orgName}/bench`, { method: 'PUT', headers: { ...auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` }, body: form(JSON.stringify({ name: 't1' })) });
    if (trail.status !== 201) throw new Error(`trail: ${trail.status} ${trail.body}`);
    const every = Math.max(1, Math.floor(ATTESTATIONS / Math.max(1, ATTACHED)));
    let attachedBytes = 0;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const post = async (i: number) => {
      const file = ATTACHED > 0 && i % every === 0 && i / every < ATTACHED ? randomBytes(MB * 1024 * 1024) : undefined;
      attachedBytes += file?.length ?? 0;
      const res = await request(`${api}/attestations/${stack.orgName}/bench/trail/t1/generic`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
        body: form(JSON.stringify({ attestation_name: `a${i}`, is_compliant: true }), file),
        agent,
      });
      if (res.status !== 201) throw new Error(`attestation ${i}: ${res.status} ${res.body}`);
    };
    for (let i = 0; i < ATTESTATIONS; i += 4) await Promise.all([0, 1, 2, 3].filter((k) => i + k < ATTESTATIONS).map((k) => post(i + k)));
    // Wait until the signed checkpoint covers everything (the package includes what it covers).
    for (;;) {
      const entries = await request(`${api}/log/${stack.orgName}/entries?start=0&limit=1`, { headers: auth });
      const cp = await request(`${api}/log/${stack.orgName}/checkpoint`, { headers: auth });
      if (Number(cp.body.split('\n')[1]) >= JSON.parse(entries.body).tree_size && JSON.parse(entries.body).tree_size >= ATTESTATIONS) break;
      await pause(100);
    }
    const builds: Build[] = [{ name: MAINS.length > 1 ? 'A' : '', pid: stack.pid, baseUrl: stack.baseUrl, stop: async () => undefined }];
    for (const [i, main] of MAINS.slice(1).entries()) others.push(await startBuild(stack, 'BCDEFGH'[i], main));
    builds.push(...others);
    const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
    const rows: string[] = [];
    if (builds.length > 1) rows.push(`builds: ${MAINS.map((m, i) => `${builds[i].name} = ${m}`).join(', ')}`);
    rows.push(MD ? '| build | round | package (MB) | seconds | MB/s | RSS before / peak / growth (MB) | service CPU (s) | PostgreSQL CPU (s) | load (1 min) |\n|---|---|---|---|---|---|---|---|---|' : `audit package: ${ATTESTATIONS} attestations, ${(attachedBytes / 1e6).toFixed(0)} MB attached; ${machine()}; load ${load()}`);
    for (let round = 1; round <= ROUNDS; round++) {
      // A B C, then B C A, ...: each build is measured first, second, ... in turn.
      const order = builds.map((_, i) => builds[(i + round - 1) % builds.length]);
      for (const build of order) {
        const before = rssMb(build.pid);
        const cpu = [cpuSeconds(build.pid), stack.postgresCpuSeconds()];
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, rssMb(build.pid))), 20);
        const got = await download(`${build.baseUrl}/api/v2/trails/${stack.orgName}/bench/t1/audit_package`, stack.apiKey);
        clearInterval(sampler);
        const used = [cpuSeconds(build.pid) - cpu[0], stack.postgresCpuSeconds() - cpu[1]].map((c) => c.toFixed(2));
        if (got.status !== 200) throw new Error(`package: ${got.status}`);
        const mbps = got.bytes / 1e6 / (got.ms / 1000);
        const cells = [build.name, String(round), (got.bytes / 1e6).toFixed(1), (got.ms / 1000).toFixed(2), mbps.toFixed(1), `${before.toFixed(0)} / ${peak.toFixed(0)} / ${(peak - before).toFixed(0)}`, used[0], used[1], os.loadavg()[0].toFixed(2)];
        rows.push(MD ? `| ${cells.join(' | ')} |` : `${build.name ? `build ${build.name} ` : ''}round ${cells[1]}: ${cells[2]} MB in ${cells[3]} s = ${cells[4]} MB/s; RSS before/peak/growth ${cells[5]} MB; CPU service ${cells[6]} s, PostgreSQL ${cells[7]} s; load ${cells[8]}`);
        console.error(rows[rows.length - 1]);
      }
    }
    rows.push(`load average (1/5/15 min) at the end: ${load()}`);
    console.log(rows.join('\n'));
  } finally {
    for (const b of others) await b.stop();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
