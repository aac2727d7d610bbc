/**
 * Environment reports benchmark (issue 11 "Performance"). Run: `npm run build && npx ts-node --transpile-only
 * bench/environments/run.ts [--pods N] [--images N] [--containers N] [--rounds N] [--samples N]
 * [--fleet N] [--fleet-pods N] [--period S] [--fleet-seconds S] [--node-args '<flags>'] [--main <build>/src/main.js]
 * [--json] [--md]`. `--main` runs another build (a copy of its dist/ under bench/.work/); `--json` prints the
 * summary as one JSON line on stdout. bench/house/compare.ts takes the rig (startEnvironmentRig, reportRound) to
 * run two builds in paired rounds.
 *
 * The real service (dist/src/main.js) on an embedded PostgreSQL with durable settings (bench/ingest/harness.ts).
 * One K8S environment; a report of PODS pods (default 5,000) running IMAGES distinct images (default 1,000),
 * CONTAINERS containers each (default 5), every image reported into its own trail first (provenance for all).
 *   1. unchanged: the same report again, sequentially, in ROUNDS paired rounds of SAMPLES requests, alternating
 *      with the baseline measured in the same run: a bare express route that parses the same body with the same
 *      body parser and answers a string (the floor: transfer + JSON parse). Rows written: tuples inserted,
 *      updated, deleted in the database during the phase (pg_stat_user_tables), and WAL bytes.
 *   2. changed: each report changes one image's digest (alternately v1/v2), sequentially, paired rounds again;
 *      bytes a changed report costs: growth of the snapshot, run and outbox tables over the phase (pages) and the
 *      size of the rows it wrote (pg_column_size).
 *   3. fleet: FLEET environments (default 50) of FLEET_PODS pods each (default 5,000), each reporting every PERIOD
 *      seconds (default 10) for FLEET_SECONDS (default 60), phases spread over the period as independent
 *      reporters are; latency p50/p99 of all reports, and database size before and after (with the relations
 *      that grew). FLEET_PASSES (default 2) such minutes in a row, each reported on its own.
 * Targets: unchanged p50 <= 50 ms and no row written; changed p50 <= 200 ms; fleet p99 < 300 ms and database
 * size per unchanged report 0.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/database/embedded/embedded-postgres';
import { cpuSeconds, machine, percentile, request, startStack, Stack } from '../ingest/harness';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const PODS = arg('pods', 5000);
const IMAGES = arg('images', 1000);
const CONTAINERS = arg('containers', 5);
const ROUNDS = arg('rounds', 5);
const SAMPLES = arg('samples', 20);
const FLEET = arg('fleet', 50);
const FLEET_PODS = arg('fleet-pods', 5000);
const PERIOD = arg('period', 10);
const FLEET_SECONDS = arg('fleet-seconds', 60);
/** The fleet minute is run this many times in a row, each reported on its own (the first one after setup, then steady state). */
const FLEET_PASSES = arg('fleet-passes', 2);
const MD = args.includes('--md');
/** Another build's main.js (a copy of its dist/ inside the project folder, e.g. bench/.work/<name>/src/main.js). */
const MAIN = args.includes('--main') ? args[args.indexOf('--main') + 1] : undefined;
/** Print the summary as one JSON line on stdout (the readable lines go to stderr). */
const JSON_OUT = args.includes('--json');
/** Flags for the service's node process (for example `--max-semi-space-size=64`); none by default. */
const NODE_ARGS = args.includes('--node-args') ? args[args.indexOf('--node-args') + 1].split(' ').filter(Boolean) : [];

const digestOf = (seed: string) => createHash('sha256').update(seed).digest('hex');
const imageName = (i: number) => `registry.example.com/team-${i % 37}/service-${i}:1.${i % 10}.${i % 7}`;

/** A K8S report as `kosli snapshot k8s` sends it; `version` picks the digest of image 0 (the one that changes). */
function k8sReport(pods: number, images: number, containers: number, version = 1, salt = ''): Buffer {
  const artifacts = [];
  for (let p = 0; p < pods; p++) {
    const digests: Record<string, string> = {};
    for (let c = 0; c < containers; c++) {
      const i = (p * containers + c) % images;
      digests[imageName(i)] = digestOf(`${salt}image-${i}${i === 0 ? `-v${version}` : ''}`);
    }
    artifacts.push({
      podName: `service-${p % images}-7d9f8b6c5-${p.toString(36).padStart(5, 'x')}`,
      namespace: `ns-${p % 20}`,
      digests,
      creationTimestamp: 1_700_000_000 + p,
      owners: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `service-${p % images}-7d9f8b6c5`, uid: digestOf(`rs-${p}`).slice(0, 36), controller: true, blockOwnerDeletion: true }],
    });
  }
  return Buffer.from(JSON.stringify({ artifacts }));
}

/** The baseline: the same body through express' JSON parser (the service's limit), answering a string. */
const BARE_SERVER = `
const express = require('express');
const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.put('/report', express.json({ limit: 32 * 1024 * 1024 }), (req, res) => res.status(200).json('OK'));
app.listen(Number(process.env.PORT), '127.0.0.1');
`;

async function startBare(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { cwd: path.resolve(__dirname, '../..'), env: { ...process.env, PORT: String(port) }, stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}/report`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await request(url, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status === 200) return { url, child };
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('bare express server did not start');
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One PUT; resolves with status and milliseconds from the first byte sent to the last byte read. */
function put(url: string, body: Buffer, key?: string): Promise<{ status: number; ms: number; body: string }> {
  const target = new URL(url);
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Content-Length': String(body.length) };
  if (key) headers.Authorization = `Bearer ${key}`;
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'PUT', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - t0) / 1e6, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p = (values: number[], q: number) => percentile([...values].sort((a, b) => a - b), q);
const ms = (v: number) => v.toFixed(1);

async function api(stack: Stack, method: string, route: string, body: unknown, expect: number[]): Promise<void> {
  const res = await request(`${stack.baseUrl}/api/v2/${route}`, {
    method,
    agent,
    headers: { Authorization: `Bearer ${stack.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!expect.includes(res.status)) throw new Error(`${method} ${route}: ${res.status} ${res.body}`);
}

/** Tuples inserted / updated / deleted so far in the service's tables, as PostgreSQL counts them, and the WAL position. */
async function writes(db: Client) {
  // Other backends flush their counters when a transaction ends at least 1 s after their last flush, or after
  // 10 s idle: wait out both.
  await db.query(`SELECT pg_sleep(11)`);
  await db.query(`SELECT pg_stat_clear_snapshot()`);
  const [row] = (
    await db.query(
      `SELECT sum(n_tup_ins)::bigint AS ins, sum(n_tup_upd)::bigint AS upd, sum(n_tup_del)::bigint AS del,
         pg_current_wal_lsn() AS lsn,
         (SELECT json_object_agg(relname, json_build_array(n_tup_ins, n_tup_upd)) FROM pg_stat_user_tables WHERE n_tup_ins + n_tup_upd > 0) AS detail
       FROM pg_stat_user_tables`,
    )
  ).rows;
  return { ins: Number(row.ins), upd: Number(row.upd), del: Number(row.del), lsn: row.lsn as string, detail: row.detail as Record<string, [number, number]> };
}
const walBytes = async (db: Client, from: string, to: string) => Number((await db.query(`SELECT pg_wal_lsn_diff($2, $1)::bigint AS b`, [from, to])).rows[0].b);
/** Size of every relation of the service's schema (tables, indexes, TOAST, free space and visibility maps). */
const relationSizes = async (db: Client) =>
  new Map<string, number>(
    (
      await db.query(
        `SELECT c.relname, pg_relation_size(c.oid, 'main') + pg_relation_size(c.oid, 'fsm') + pg_relation_size(c.oid, 'vm') AS b
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' OR (n.nspname = 'pg_toast' AND c.relname LIKE 'pg_toast%')`,
      )
    ).rows.map((r) => [r.relname as string, Number(r.b)]),
  );
const grown = (before: Map<string, number>, after: Map<string, number>) =>
  [...after]
    .map(([name, b]) => [name, b - (before.get(name) ?? 0)] as const)
    .filter(([, d]) => d !== 0)
    .map(([name, d]) => `${name} ${d > 0 ? '+' : ''}${d}`)
    .join(', ') || 'none';
const tableBytes = async (db: Client) =>
  Number(
    (
      await db.query(
        `SELECT sum(pg_total_relation_size(c.oid))::bigint AS b FROM pg_class c
         WHERE c.relname IN ('environment_snapshots', 'environment_artifact_runs', 'outbox_events', 'environments') AND c.relkind = 'r'`,
      )
    ).rows[0].b,
  );

/** The service with one K8S environment whose images all have provenance, and its first report made. */
export interface EnvironmentRig {
  stack: Stack;
  db: Client;
  /** The environment's report route. */
  url: string;
  v1: Buffer;
  v2: Buffer;
  /** Milliseconds of the first report (every artifact evaluated cold). */
  firstMs: number;
  setupSeconds: number;
  stop(): Promise<void>;
}

export async function startEnvironmentRig(options: { pods: number; images: number; containers: number; main?: string; nodeArgs?: string[] }): Promise<EnvironmentRig> {
  const { pods, images, containers } = options;
  const stack = await startStack({ main: options.main, nodeArgs: options.nodeArgs });
  const db = new Client({ connectionString: stack.dbUrl });
  const stop = async () => {
    await db.end().catch(() => undefined);
    await stack.stop();
  };
  try {
    await db.connect();
    const started = Date.now();
    // Provenance: every image reported into a trail of its own (flow `build`), as CI would.
    await api(stack, 'PUT', `flows/${stack.orgName}`, { name: 'build', description: '', visibility: 'private' }, [201]);
    const queue = Array.from({ length: images }, (_, i) => i);
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
          const body = { fingerprint: digestOf(`image-${i}${i === 0 ? '-v1' : ''}`), filename: imageName(i), trail_name: `build-${i}`, template_reference_name: 'image' };
          await api(stack, 'POST', `artifacts/${stack.orgName}/build`, body, [201]);
        }
      }),
    );
    await api(stack, 'PUT', `environments/${stack.orgName}`, { name: 'big', type: 'K8S', description: 'benchmark' }, [201]);
    const url = `${stack.baseUrl}/api/v2/environments/${stack.orgName}/big/report/K8S`;
    const v1 = k8sReport(pods, images, containers, 1);
    const v2 = k8sReport(pods, images, containers, 2);
    const setupSeconds = (Date.now() - started) / 1000;
    const first = await put(url, v1, stack.apiKey);
    if (first.status !== 201) throw new Error(`first report: ${first.status} ${first.body}`);
    return { stack, db, url, v1, v2, firstMs: first.ms, setupSeconds, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * SAMPLES reports one after another, unchanged (the last report again) or changed (v1 and v2 in turn, so each
 * one changes one image's digest); after each, `between` if given (run.ts's bare baseline). Latencies and CPU per report of the
 * service process and of its own PostgreSQL (the `between` work included in the service's).
 */
export async function reportRound(rig: EnvironmentRig, kind: 'unchanged' | 'changed', samples: number, between?: () => Promise<void>) {
  const latencies: number[] = [];
  const cpu0 = cpuSeconds(rig.stack.pid);
  const pg0 = rig.stack.postgresCpuSeconds();
  for (let i = 0; i < samples; i++) {
    const last = lastSent.get(rig) ?? rig.v1;
    const body = kind === 'unchanged' ? last : last === rig.v1 ? rig.v2 : rig.v1;
    lastSent.set(rig, body);
    const r = await put(rig.url, body, rig.stack.apiKey);
    const expected = kind === 'unchanged' ? 200 : 201;
    if (r.status !== expected) throw new Error(`${kind} report: ${r.status} ${r.body}`);
    latencies.push(r.ms);
    if (between) await between();
  }
  return {
    latencies,
    p50: median(latencies),
    serviceCpuMs: ((cpuSeconds(rig.stack.pid) - cpu0) * 1000) / samples,
    postgresCpuMs: ((rig.stack.postgresCpuSeconds() - pg0) * 1000) / samples,
  };
}
/** The report a rig's environment holds now (v1 after the first): an unchanged report sends it again, a changed one the other. */
const lastSent = new WeakMap<EnvironmentRig, Buffer>();

/** The benchmark's summary, as `--json` prints it (one line, last on stdout). */
export interface EnvironmentSummary {
  bench: 'environments';
  main: string;
  machine: string;
  load_average: number[];
  first_ms: number;
  unchanged: { p50_ms: number; p99_ms: number; bare_p50_ms: number; ratio_to_bare: number; service_cpu_ms: number; postgres_cpu_ms: number; tuples_written: number; wal_bytes: number };
  changed: { p50_ms: number; p99_ms: number; ratio_to_bare: number; service_cpu_ms: number; postgres_cpu_ms: number; rows_inserted_per_report: number };
  fleet: Array<{ pass: number; reports: number; p50_ms: number; p99_ms: number; bytes_per_report: number }>;
}

async function main() {
  const log = JSON_OUT ? (line: string) => console.error(line) : (line: string) => console.log(line);
  log(
    `environments benchmark: ${PODS} pods x ${CONTAINERS} containers over ${IMAGES} images; ${ROUNDS} rounds of ${SAMPLES}; fleet ${FLEET} x ${FLEET_PODS} pods every ${PERIOD}s for ${FLEET_SECONDS}s; ` +
      `service node flags: ${NODE_ARGS.join(' ') || 'none'}; build ${MAIN ?? 'dist/src/main.js'}; ${machine()}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  );
  const bare = await startBare();
  const rig = await startEnvironmentRig({ pods: PODS, images: IMAGES, containers: CONTAINERS, main: MAIN, nodeArgs: NODE_ARGS }).catch((error) => {
    bare.child.kill('SIGTERM');
    throw error;
  });
  const { stack, db, url, v1, v2 } = rig;
  const results: string[] = [];
  const out = (line: string) => {
    log(line);
    results.push(line);
  };
  const summary: EnvironmentSummary = {
    bench: 'environments',
    main: MAIN ?? 'dist/src/main.js',
    machine: machine(),
    load_average: [],
    first_ms: rig.firstMs,
    unchanged: { p50_ms: NaN, p99_ms: NaN, bare_p50_ms: NaN, ratio_to_bare: NaN, service_cpu_ms: NaN, postgres_cpu_ms: NaN, tuples_written: NaN, wal_bytes: NaN },
    changed: { p50_ms: NaN, p99_ms: NaN, ratio_to_bare: NaN, service_cpu_ms: NaN, postgres_cpu_ms: NaN, rows_inserted_per_report: NaN },
    fleet: [],
  };
  try {
    let started = Date.now();
    log(`setup: ${rig.setupSeconds.toFixed(1)} s; report body ${(v1.length / 1e6).toFixed(2)} MB`);
    out(`first report (snapshot 1, ${IMAGES} artifacts evaluated cold): ${ms(rig.firstMs)} ms`);

    // 1. unchanged, paired with the bare baseline
    const bareTimes: number[] = [];
    const bareAfter = async () => {
      bareTimes.push((await put(bare.url, v1)).ms);
    };
    await reportRound(rig, 'unchanged', 3, bareAfter);
    bareTimes.length = 0;
    const before = await writes(db);
    const sizeBefore = await tableBytes(db);
    const unchanged: number[] = [];
    const ratios: number[] = [];
    const cpuBefore = cpuSeconds(stack.pid);
    const pgBefore = stack.postgresCpuSeconds();
    for (let round = 0; round < ROUNDS; round++) {
      const from = bareTimes.length;
      const r = await reportRound(rig, 'unchanged', SAMPLES, bareAfter);
      unchanged.push(...r.latencies);
      ratios.push(r.p50 / median(bareTimes.slice(from)));
    }
    const n = ROUNDS * SAMPLES;
    const serviceCpu = ((cpuSeconds(stack.pid) - cpuBefore) * 1000) / n;
    const pgCpu = ((stack.postgresCpuSeconds() - pgBefore) * 1000) / n;
    const after = await writes(db);
    const sizeAfter = await tableBytes(db);
    const bareUnchanged = bareTimes.splice(0);
    out(
      `unchanged: p50 ${ms(p(unchanged, 50))} ms, p99 ${ms(p(unchanged, 99))} ms; bare express parsing the same body p50 ${ms(p(bareUnchanged, 50))} ms; ` +
        `ratio to bare (median of ${ROUNDS} paired rounds) ${median(ratios).toFixed(2)}; CPU per report: service ${ms(serviceCpu)} ms (bare's work included), PostgreSQL ${pgCpu.toFixed(2)} ms`,
    );
    const unchangedWal = await walBytes(db, before.lsn, after.lsn);
    out(
      `unchanged, ${n} reports: tuples inserted ${after.ins - before.ins}, updated ${after.upd - before.upd}, deleted ${after.del - before.del}; ` +
        `WAL ${unchangedWal} bytes; environment tables ${sizeAfter - sizeBefore} bytes bigger`,
    );
    summary.unchanged = {
      p50_ms: p(unchanged, 50),
      p99_ms: p(unchanged, 99),
      bare_p50_ms: p(bareUnchanged, 50),
      ratio_to_bare: median(ratios),
      service_cpu_ms: serviceCpu,
      postgres_cpu_ms: pgCpu,
      tuples_written: after.ins - before.ins + (after.upd - before.upd) + (after.del - before.del),
      wal_bytes: unchangedWal,
    };

    // 2. changed: one image of IMAGES changes digest on every report
    await reportRound(rig, 'changed', 2);
    const cBefore = await writes(db);
    const cSizeBefore = await tableBytes(db);
    const [{ snap: snapBefore }] = (await db.query(`SELECT max(number) AS snap FROM environment_snapshots`)).rows;
    const changed: number[] = [];
    const changedRatios: number[] = [];
    const cCpuBefore = cpuSeconds(stack.pid);
    const cPgBefore = stack.postgresCpuSeconds();
    for (let round = 0; round < ROUNDS; round++) {
      const from = bareTimes.length;
      const r = await reportRound(rig, 'changed', SAMPLES, bareAfter);
      changed.push(...r.latencies);
      changedRatios.push(r.p50 / median(bareTimes.slice(from)));
    }
    const cServiceCpu = ((cpuSeconds(stack.pid) - cCpuBefore) * 1000) / n;
    const cPgCpu = ((stack.postgresCpuSeconds() - cPgBefore) * 1000) / n;
    const cAfter = await writes(db);
    const cSizeAfter = await tableBytes(db);
    const [{ rows_bytes: rowBytes }] = (
      await db.query(
        `SELECT (SELECT coalesce(sum(pg_column_size(s.*)), 0) FROM environment_snapshots s WHERE s.number > $1)
              + (SELECT coalesce(sum(pg_column_size(r.*)), 0) FROM environment_artifact_runs r WHERE r.first_snapshot > $1)
              + (SELECT coalesce(sum(pg_column_size(e.*)), 0) FROM outbox_events e
                 WHERE (e.payload->>'snapshot')::int > $1 AND e.subject->>'environment' = 'big') AS rows_bytes`,
        [snapBefore],
      )
    ).rows;
    out(
      `changed (1 of ${IMAGES} images): p50 ${ms(p(changed, 50))} ms, p99 ${ms(p(changed, 99))} ms; ratio to bare ${median(changedRatios).toFixed(2)}; ` +
        `CPU per report: service ${ms(cServiceCpu)} ms, PostgreSQL ${cPgCpu.toFixed(2)} ms; ` +
        `per changed report: ${((cAfter.ins - cBefore.ins) / n).toFixed(1)} rows inserted, ${((cAfter.upd - cBefore.upd) / n).toFixed(1)} updated, ` +
        `${Math.round(Number(rowBytes) / n)} bytes of rows written, WAL ${Math.round((await walBytes(db, cBefore.lsn, cAfter.lsn)) / n)} bytes, ` +
        `tables ${Math.round((cSizeAfter - cSizeBefore) / n)} bytes bigger (8 kB pages, averaged over ${n})`,
    );
    summary.changed = {
      p50_ms: p(changed, 50),
      p99_ms: p(changed, 99),
      ratio_to_bare: median(changedRatios),
      service_cpu_ms: cServiceCpu,
      postgres_cpu_ms: cPgCpu,
      rows_inserted_per_report: (cAfter.ins - cBefore.ins) / n,
    };
    const [{ total_runs: totalRuns }] = (await db.query(`SELECT count(*)::int AS total_runs FROM environment_artifact_runs`)).rows;
    out(`after ${n + 3} snapshots of a ${IMAGES}-artifact environment: ${totalRuns} runs stored (a copy per snapshot would be ${(n + 3) * IMAGES})`);

    // 3. fleet
    if (FLEET > 0) {
      started = Date.now();
      const fleetBodies: Buffer[] = [];
      for (let e = 0; e < FLEET; e++) {
        await api(stack, 'PUT', `environments/${stack.orgName}`, { name: `fleet-${e}`, type: 'K8S', description: '' }, [201]);
        // Each environment runs the same images (their provenance is known), in its own pods.
        fleetBodies.push(k8sReport(FLEET_PODS, IMAGES, CONTAINERS, 1));
        const r = await put(`${stack.baseUrl}/api/v2/environments/${stack.orgName}/fleet-${e}/report/K8S`, fleetBodies[e], stack.apiKey);
        if (r.status !== 201) throw new Error(`fleet first report: ${r.status} ${r.body}`);
      }
      // The setup inserted a run per artifact per environment: let autovacuum's work on that happen now, not
      // during the measured minutes (as a long-running installation has it done long ago).
      await db.query(`VACUUM (ANALYZE) environment_artifact_runs, environment_snapshots, environments, outbox_events`);
      log(`fleet setup: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      for (let pass = 1; pass <= FLEET_PASSES; pass++) {
        await db.query(`CHECKPOINT`);
        const dbBefore = Number((await db.query(`SELECT pg_database_size(current_database()) AS b`)).rows[0].b);
        const relationsBefore = await relationSizes(db);
        const fBefore = await writes(db);
        const latencies: number[] = [];
        const statuses = new Map<number, number>();
        const t0 = Date.now();
        await Promise.all(
          fleetBodies.map(async (body, e) => {
            // Independent reporters: each on its own timer, phases spread over the period.
            const offset = (e * PERIOD * 1000) / FLEET;
            for (let k = 0; offset + k * PERIOD * 1000 < FLEET_SECONDS * 1000; k++) {
              const due = t0 + offset + k * PERIOD * 1000;
              const wait = due - Date.now();
              if (wait > 0) await new Promise((r) => setTimeout(r, wait));
              const r = await put(`${stack.baseUrl}/api/v2/environments/${stack.orgName}/fleet-${e}/report/K8S`, body, stack.apiKey);
              statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
              latencies.push(r.ms);
            }
          }),
        );
        const fAfter = await writes(db);
        const dbAfter = Number((await db.query(`SELECT pg_database_size(current_database()) AS b`)).rows[0].b);
        const relationsAfter = await relationSizes(db);
        const envWrites = Object.entries(fAfter.detail)
          .filter(([table]) => table.startsWith('environment'))
          .map(([table, [ins, upd]]) => {
            const [ins0, upd0] = fBefore.detail[table] ?? [0, 0];
            return `${table} +${ins - ins0} ins / +${upd - upd0} upd`;
          });
        out(
          `fleet, pass ${pass}: ${latencies.length} reports (${[...statuses].map(([s, c]) => `${c} x ${s}`).join(', ')}) from ${FLEET} environments of ${FLEET_PODS} pods every ${PERIOD}s for ${FLEET_SECONDS}s: ` +
            `p50 ${ms(p(latencies, 50))} ms, p99 ${ms(p(latencies, 99))} ms, max ${ms(Math.max(...latencies))} ms; ` +
            `database ${dbAfter - dbBefore} bytes bigger (${((dbAfter - dbBefore) / latencies.length).toFixed(1)} bytes per report); ${envWrites.join(', ')}; ` +
            `relations grown: ${grown(relationsBefore, relationsAfter)}`,
        );
        summary.fleet.push({ pass, reports: latencies.length, p50_ms: p(latencies, 50), p99_ms: p(latencies, 99), bytes_per_report: (dbAfter - dbBefore) / latencies.length });
      }
    }
    if (MD) log(['', '```text', ...results, '```'].join('\n'));
    if (JSON_OUT) console.log(JSON.stringify({ ...summary, load_average: os.loadavg() }));
  } finally {
    bare.child.kill('SIGTERM');
    await rig.stop();
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
