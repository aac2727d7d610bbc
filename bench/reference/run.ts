/**
 * Reference-API benchmark (issue 24 "Performance"). Run: `npm run bench -- reference [--rows N] [--samples N] [--md]`.
 *
 * Starts the real service (dist/src/main.js) on an embedded PostgreSQL (bench/ingest/harness.ts) and bulk-inserts
 * (setup only, with generate_series) N (default 1,000,000) artifact reports in one flow over 1,000 trails, and an
 * environment whose event log has N entries. Then, one request at a time, cases interleaved:
 *   - `GET /artifacts/{org}` and `GET /artifacts/{org}/{flow}`: page 1, a middle page and the last page (per_page 100);
 *   - `GET /search/{org}/sha/{8 hex}` (a prefix of one fingerprint);
 *   - `GET /environments/{org}/{env}/events`: page 1, the last page, a `start`/`end` range (per_page 100);
 *   - then `GET .../auditlog` once, the whole N-entry CSV read slowly, sampling the service's resident memory
 *     (VmRSS) while it streams: flat memory means the peak stays near the start, whatever N.
 * Targets: p99 <= 20 ms for every listing case; the audit log's memory flat (growth well under the CSV's size).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import { Client } from 'pg';
import { machine, percentile, startStack } from '../ingest/harness';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ROWS = arg('rows', 1_000_000);
const SAMPLES = arg('samples', 300);
const MD = args.includes('--md');
const PER_PAGE = 100;
const TRAILS = 1000;
const EVENTS_PER_SNAPSHOT = 10;

function get(agent: http.Agent, url: string, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { Authorization: `Bearer ${key}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      })
      .on('error', reject);
  });
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** Reads the whole response slowly (paused between chunks), sampling the service's memory; returns bytes and the RSS samples. */
function slowDownload(url: string, key: string, pid: number): Promise<{ status: number; bytes: number; lines: number; rss: number[] }> {
  return new Promise((resolve, reject) => {
    const rss: number[] = [rssMb(pid)];
    http
      .get(url, { headers: { Authorization: `Bearer ${key}` } }, (res) => {
        let bytes = 0;
        let lines = 0;
        let chunks = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          for (const b of c) if (b === 10) lines++;
          if (++chunks % 200 === 0) {
            rss.push(rssMb(pid));
            res.pause();
            setTimeout(() => res.resume(), 2);
          }
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, lines, rss: [...rss, rssMb(pid)] }));
      })
      .on('error', reject);
  });
}

async function main() {
  console.log(`reference benchmark: ${ROWS.toLocaleString('en')} artifacts and ${ROWS.toLocaleString('en')} environment events, ${SAMPLES} samples per case; ${machine()}`);
  const stack = await startStack();
  const db = new Client({ connectionString: stack.dbUrl });
  await db.connect();
  try {
    const started = Date.now();
    const [{ id: orgId }] = (await db.query(`SELECT id FROM organizations WHERE name = $1`, [stack.orgName])).rows;
    const [{ id: flowId }] = (await db.query(`INSERT INTO flows (id, org_id, name) VALUES (gen_random_uuid(), $1, 'big-flow') RETURNING id`, [orgId])).rows;
    const perTrail = Math.ceil(ROWS / TRAILS);
    await db.query(
      `INSERT INTO trails (id, org_id, flow_id, name, last_moment)
       SELECT gen_random_uuid(), $1, $2, 'trail-' || t, $3 FROM generate_series(1, ${TRAILS}) AS t`,
      [orgId, flowId, perTrail],
    );
    const endMs = Date.now() - 60_000;
    await db.query(
      `INSERT INTO artifacts (id, org_id, flow_id, trail_id, moment_number, fingerprint, filename, template_reference_name,
         git_commit, repo_info, created_at, org_seq, flow_seq)
       SELECT gen_random_uuid(), $1, $2, tr.id, ((s - 1) % ${perTrail}) + 1, encode(sha256(s::text::bytea), 'hex'),
         'app-' || s, 'app-' || (s % 10), substr(encode(sha256(('c' || s)::text::bytea), 'hex'), 1, 40),
         jsonb_build_object('name', 'acme/repo-' || (s % 50), 'url', 'https://git.example/acme', 'id', (s % 50)::text),
         to_timestamp($3::float8 / 1000) - ($4 - s) * interval '10 milliseconds', s, s
       FROM generate_series(1, $4::bigint) AS s
       JOIN (SELECT id, row_number() OVER (ORDER BY name) AS n FROM trails WHERE flow_id = $2) tr ON tr.n = ((s - 1) / ${perTrail}) + 1`,
      [orgId, flowId, endMs, ROWS],
    );
    await db.query(`INSERT INTO artifact_sequences (org_id, scope_id, last_seq) VALUES ($1, $1, $3), ($1, $2, $3)`, [orgId, flowId, ROWS]);
    const snapshots = Math.ceil(ROWS / EVENTS_PER_SNAPSHOT);
    const [{ id: envId }] = (
      await db.query(
        `INSERT INTO environments (id, org_id, name, type, last_snapshot, last_snapshot_at, compliant)
         VALUES (gen_random_uuid(), $1, 'big-env', 'K8S', $2, now(), true) RETURNING id`,
        [orgId, snapshots],
      )
    ).rows;
    await db.query(
      `INSERT INTO environment_events (org_id, environment_id, seq, snapshot, created_at, type, artifact_name, fingerprint,
         description, flows, repo_names, artifact_compliance, snapshot_compliance)
       SELECT $1, $2, s, ((s - 1) / ${EVENTS_PER_SNAPSHOT}) + 1, to_timestamp($3::float8 / 1000) - ($4 - s) * interval '10 milliseconds',
         (ARRAY['started', 'exited', 'changed'])[1 + s % 3], 'img, "v' || s || '"', encode(sha256(s::text::bytea), 'hex'),
         '1 instance started', ARRAY['big-flow'], ARRAY['acme/repo-' || (s % 50)], s % 7 <> 0, true
       FROM generate_series(1, $4::bigint) AS s`,
      [orgId, envId, endMs, ROWS],
    );
    await db.query(`VACUUM ANALYZE artifacts`);
    await db.query(`VACUUM ANALYZE environment_events`);
    await db.query(`CHECKPOINT`);
    console.log(`setup: ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const api = `${stack.baseUrl}/api/v2`;
    const org = stack.orgName;
    const lastPage = Math.ceil(ROWS / PER_PAGE);
    const fp = (await db.query(`SELECT fingerprint FROM artifacts WHERE org_id = $1 AND org_seq = $2`, [orgId, Math.floor(ROWS / 3)])).rows[0].fingerprint;
    const cases: Array<[string, string]> = [
      ['artifacts: page 1', `${api}/artifacts/${org}?per_page=${PER_PAGE}`],
      ['artifacts: middle page', `${api}/artifacts/${org}?per_page=${PER_PAGE}&page=${Math.floor(lastPage / 2)}`],
      [`artifacts: last page (${lastPage})`, `${api}/artifacts/${org}?per_page=${PER_PAGE}&page=${lastPage}`],
      ['flow artifacts: last page', `${api}/artifacts/${org}/big-flow?per_page=${PER_PAGE}&page=${lastPage}`],
      ['search: 8-hex prefix', `${api}/search/${org}/sha/${fp.slice(0, 8)}`],
      ['events: page 1', `${api}/environments/${org}/big-env/events?per_page=${PER_PAGE}`],
      [`events: last page (${lastPage})`, `${api}/environments/${org}/big-env/events?per_page=${PER_PAGE}&page=${lastPage}`],
      ['events: start/end range, page 2', `${api}/environments/${org}/big-env/events?per_page=${PER_PAGE}&page=2&start=${Math.floor(snapshots / 3)}&end=${Math.floor(snapshots / 2)}`],
    ];
    for (const [label, url] of cases) {
      const res = await get(agent, url, stack.apiKey);
      const body = JSON.parse(res.body);
      const n = Array.isArray(body) ? body.length : body.artifacts?.length;
      if (res.status !== 200 || !n) throw new Error(`${label}: ${res.status} ${res.body.slice(0, 300)}`);
    }
    for (let i = 0; i < 20; i++) for (const [, url] of cases) await get(agent, url, stack.apiKey);
    const times: number[][] = cases.map(() => []);
    for (let i = 0; i < SAMPLES; i++) {
      for (let c = 0; c < cases.length; c++) {
        const t0 = process.hrtime.bigint();
        const res = await get(agent, cases[c][1], stack.apiKey);
        times[c].push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (res.status !== 200) throw new Error(`${cases[c][0]}: ${res.status}`);
      }
    }
    const results = cases.map(([label], c) => {
      const sorted = times[c].sort((a, b) => a - b);
      const r = { label, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] };
      console.log(`${label.padEnd(36)} p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  max ${r.max.toFixed(1)} ms`);
      return r;
    });
    agent.destroy();

    const t0 = Date.now();
    const csv = await slowDownload(`${api}/environments/${org}/big-env/auditlog`, stack.apiKey, stack.pid);
    if (csv.status !== 200 || csv.lines !== ROWS + 1) throw new Error(`auditlog: ${csv.status}, ${csv.lines} lines`);
    const before = csv.rss[0];
    const peak = Math.max(...csv.rss);
    const csvMb = csv.bytes / 1024 / 1024;
    console.log(
      `auditlog: ${csvMb.toFixed(0)} MB of CSV in ${((Date.now() - t0) / 1000).toFixed(1)} s; service RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(0)} MB), ${csv.rss.length} samples`,
    );
    const met = results.every((r) => r.p99 <= 20);
    console.log(`p99 <= 20 ms for every listing case: ${met ? 'MET' : 'NOT MET'}; audit log memory growth ${(peak - before).toFixed(0)} MB for ${csvMb.toFixed(0)} MB streamed`);
    if (MD) {
      console.log(`\n| case | p50 | p99 | max |\n|---|---|---|---|`);
      for (const r of results) console.log(`| ${r.label} | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${r.max.toFixed(1)} ms |`);
      console.log(`\naudit log: ${csvMb.toFixed(0)} MB streamed, service RSS ${before.toFixed(0)} -> peak ${peak.toFixed(0)} MB`);
    }
  } finally {
    await db.end();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
