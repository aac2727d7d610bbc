/**
 * Listing benchmark (issue 3 "Performance"). Run: `npm run build && npx ts-node --transpile-only
 * bench/listing/run.ts [--rows N] [--samples N] [--md]`.
 *
 * Starts the real service (dist/src/main.js) on an embedded PostgreSQL (bench/ingest/harness.ts), bulk-inserts
 * one flow of N (default 1,000,000) attestations with generate_series (setup only), then times
 * `GET /attestations/{org}/{flow}` over HTTP, one request at a time (cases interleaved), `per_page=100`:
 *   page 1, a middle page, the last page, a time-span filter (first and last page of the span).
 * Targets: p99 <= 20 ms for page 1, the last page and the time-span filter; deepest page <= 1.5x page 1.
 */
import * as http from 'node:http';
import { Client } from 'pg';
import { machine, percentile, startStack } from '../ingest/harness';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ROWS = arg('rows', 1_000_000);
const SAMPLES = arg('samples', 1000);
const MD = args.includes('--md');
const PER_PAGE = 100;
/** Generated attestations are 10 ms apart, ending one minute ago. */
const STEP_MS = 10;

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

async function main() {
  console.log(`listing benchmark: ${ROWS.toLocaleString('en')} attestations in one flow, ${SAMPLES} samples per case; ${machine()}`);
  const stack = await startStack();
  const db = new Client({ connectionString: stack.dbUrl });
  await db.connect();
  try {
    const started = Date.now();
    const [{ id: orgId }] = (await db.query(`SELECT id FROM organizations WHERE name = $1`, [stack.orgName])).rows;
    const [{ flow_id: flowId, trail_id: trailId }] = (
      await db.query(
        `WITH f AS (INSERT INTO flows (id, org_id, name) VALUES (gen_random_uuid(), $1, 'big-flow') RETURNING id),
              t AS (INSERT INTO trails (id, org_id, flow_id, name, last_moment) SELECT gen_random_uuid(), $1, f.id, 'big-trail', $2 FROM f RETURNING id, flow_id)
         SELECT flow_id, id AS trail_id FROM t`,
        [orgId, ROWS],
      )
    ).rows;
    const endMs = Date.now() - 60_000;
    const startMs = endMs - (ROWS - 1) * STEP_MS;
    await db.query(
      `INSERT INTO attestations (id, org_id, flow_id, trail_id, flow_seq, moment_number, name, attestation_type,
         is_compliant, description, origin_url, user_data, git_commit_info, reported_by, created_at)
       SELECT gen_random_uuid(), $1, $2, $3, s, s, 'check-' || (s % 20), 'generic', s % 7 <> 0,
         'generated attestation ' || s, 'https://ci.example.com/runs/' || s,
         jsonb_build_object('run', s, 'suite', 'unit'),
         jsonb_build_object('sha1', md5(s::text) || '12345678', 'branch', 'main', 'author', 'Bench <bench@example.com>'),
         'bench@example.com', to_timestamp($4::float8 / 1000) + (s - 1) * interval '${STEP_MS} milliseconds'
       FROM generate_series(1, $5::bigint) AS s`,
      [orgId, flowId, trailId, startMs, ROWS],
    );
    await db.query(
      `INSERT INTO flow_attestation_counters (org_id, flow_id, attestation_count, last_attested_at)
       VALUES ($1, $2, $3, to_timestamp($4::float8 / 1000))`,
      [orgId, flowId, ROWS, endMs],
    );
    await db.query(`VACUUM ANALYZE attestations`);
    // Write the bulk load out now, so a checkpoint does not land in the middle of the measurements.
    await db.query(`CHECKPOINT`);
    console.log(`setup: ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const base = `${stack.baseUrl}/api/v2/attestations/${stack.orgName}/big-flow`;
    const lastPage = Math.ceil(ROWS / PER_PAGE);
    // a span of 50,000 attestations in the middle of the flow
    const spanFrom = (startMs + Math.floor(ROWS * 0.4) * STEP_MS) / 1000;
    const spanTo = spanFrom + (50_000 - 1) * (STEP_MS / 1000);
    const spanPages = Math.ceil(50_000 / PER_PAGE);
    const cases: Array<[string, string, number]> = [
      ['page 1', `${base}?per_page=${PER_PAGE}&page=1`, PER_PAGE],
      ['middle page', `${base}?per_page=${PER_PAGE}&page=${Math.floor(lastPage / 2)}`, PER_PAGE],
      [`last page (${lastPage})`, `${base}?per_page=${PER_PAGE}&page=${lastPage}`, ROWS - (lastPage - 1) * PER_PAGE],
      ['time span, page 1', `${base}?per_page=${PER_PAGE}&from_timestamp=${spanFrom}&to_timestamp=${spanTo}`, PER_PAGE],
      [`time span, last page (${spanPages})`, `${base}?per_page=${PER_PAGE}&page=${spanPages}&from_timestamp=${spanFrom}&to_timestamp=${spanTo}`, PER_PAGE],
      ['page 1, default per_page', `${base}`, 20],
    ];
    const results: Array<{ label: string; p50: number; p99: number; max: number }> = [];
    // Warm-up round over every case (JIT, prepared statements, caches), then the measured rounds.
    for (let i = 0; i < 50; i++) for (const [, url] of cases) await get(agent, url, stack.apiKey);
    for (const [label, url, expected] of cases) {
      const first = await get(agent, url, stack.apiKey);
      const body = JSON.parse(first.body);
      if (first.status !== 200 || body.data.length !== expected) {
        throw new Error(`${label}: ${first.status}, ${body.data?.length} items (expected ${expected}): ${first.body.slice(0, 300)}`);
      }
      if (label.startsWith('time span, page 1') && body.pagination.total !== 50_000) throw new Error(`span total ${body.pagination.total}`);
    }
    // Interleaved (one request of each case per round), so background load hits every case alike.
    const times: number[][] = cases.map(() => []);
    for (let i = 0; i < SAMPLES; i++) {
      for (let c = 0; c < cases.length; c++) {
        const t0 = process.hrtime.bigint();
        const res = await get(agent, cases[c][1], stack.apiKey);
        times[c].push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (res.status !== 200) throw new Error(`${cases[c][0]}: ${res.status}`);
      }
    }
    cases.forEach(([label], c) => {
      const sorted = times[c].sort((a, b) => a - b);
      const r = { label, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] };
      results.push(r);
      console.log(`${label.padEnd(32)} p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  max ${r.max.toFixed(1)} ms`);
    });
    agent.destroy();

    // For comparison only: the same last page read with OFFSET (what the service does NOT do), in SQL.
    const sqlTimes = async (sql: string, params: unknown[]) => {
      const times: number[] = [];
      for (let i = 0; i < 25; i++) {
        const t0 = process.hrtime.bigint();
        await db.query(sql, params);
        times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      times.sort((a, b) => a - b);
      return percentile(times, 50);
    };
    const offsetMs = await sqlTimes(
      `SELECT * FROM attestations WHERE flow_id = $1 ORDER BY flow_seq DESC OFFSET $2 LIMIT 100`,
      [flowId, (lastPage - 1) * PER_PAGE],
    );
    const rangeMs = await sqlTimes(
      `SELECT * FROM attestations WHERE flow_id = $1 AND flow_seq BETWEEN 1 AND 100 ORDER BY flow_seq DESC`,
      [flowId],
    );
    console.log(`SQL only, last page: OFFSET ${offsetMs.toFixed(1)} ms vs flow_seq range ${rangeMs.toFixed(2)} ms (p50 of 25)`);
    const first = results[0];
    const deepest = results[2];
    const ratio50 = deepest.p50 / first.p50;
    const ratio99 = deepest.p99 / first.p99;
    const target = results.filter((r) => /^page 1$|^last page|^time span/.test(r.label)).every((r) => r.p99 <= 20);
    console.log(`deepest / first: p50 ${ratio50.toFixed(2)}x, p99 ${ratio99.toFixed(2)}x (target <= 1.5x) ${ratio99 <= 1.5 ? 'MET' : 'NOT MET'}`);
    console.log(`p99 <= 20 ms for page 1, last page and time span: ${target ? 'MET' : 'NOT MET'}`);
    if (MD) {
      console.log(`\n| case (per_page=100 unless noted) | p50 | p99 | max |\n|---|---|---|---|`);
      for (const r of results) console.log(`| ${r.label} | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${r.max.toFixed(1)} ms |`);
      console.log(`\ndeepest/first: p50 ${ratio50.toFixed(2)}x, p99 ${ratio99.toFixed(2)}x; SQL only, last page: OFFSET ${offsetMs.toFixed(1)} ms vs range ${rangeMs.toFixed(2)} ms`);
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
