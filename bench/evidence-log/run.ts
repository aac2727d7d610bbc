/**
 * Evidence log benchmark (issue 25, section 1). Run: `npm run build && npx ts-node --transpile-only
 * bench/evidence-log/run.ts [--leaves N] [--samples N] [--seconds N] [--clients N] [--main path/to/main.js]`.
 *
 * Starts the real service (dist/src/main.js) on an embedded PostgreSQL (bench/ingest/harness.ts).
 * 1. Integration lag: clients record generic attestations for SECONDS (closed loop, CLIENTS at a time; the rate
 *    reached is printed, since this machine may not reach 1,000/s); then, from the log's own rows, per entry:
 *    committed -> integrated (`integrated_at - queued_at`, where `queued_at` is the attestation's `created_at`)
 *    and committed -> covered by a signed checkpoint (the first checkpoint whose size exceeds its index).
 *    Targets: p99 <= 1 s at 1,000 attestations/s.
 * 2. Proofs at N (default 1,000,000) leaves: a second org's log is filled in SQL (setup only: synthetic leaves,
 *    leaf hashes and the stored subtrees computed level by level with PostgreSQL's sha256), the service signs
 *    its checkpoint, then inclusion proofs (random index) and consistency proofs (random first size) at the full
 *    size are timed over HTTP, one request at a time; the first inclusion proof is verified against the signed root.
 *    Target: p99 <= 10 ms. `GET /entries` of one entry is timed alongside, as the floor of an authenticated read.
 */
import * as os from 'node:os';
import { Client } from 'pg';
import { decodeHash, leafHash, parseCheckpoint, verifyInclusion } from '../../libs/transparency/src';
import { machine, percentile, request, startStack } from '../ingest/harness';
import { runLoad } from '../ingest/load';
import { BOUNDARY, dataJsonOf, multipart } from '../ingest/requests';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const LEAVES = arg('leaves', 1_000_000);
const SAMPLES = arg('samples', 500);
const SECONDS = arg('seconds', 20);
const CLIENTS = arg('clients', 16);
/** Another build's main.js (e.g. a copy of an earlier dist/), to measure it the same way; default dist/src/main.js. */
const MAIN = args.includes('--main') ? args[args.indexOf('--main') + 1] : undefined;
/** Stored subtrees start at this level (the service folds smaller ones from leaf hashes). */
const STORED_FROM = 4;

const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main() {
  console.log(`evidence log benchmark: ${machine()}; load average ${load()}`);
  const stack = await startStack({ main: MAIN });
  const db = new Client({ connectionString: stack.dbUrl });
  await db.connect();
  try {
    const auth = { Authorization: `Bearer ${stack.apiKey}` };
    // 1. Integration lag under ingest.
    const dataJson = dataJsonOf(1024, 'log-lag');
    const result = await runLoad({
      url: stack.baseUrl,
      method: 'POST',
      headers: { ...auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      path: (i) => `/api/v2/attestations/${stack.orgName}/lag-flow/trail/trail-${i % CLIENTS}/generic`,
      body: () => multipart(dataJson),
      concurrency: CLIENTS,
      durationMs: SECONDS * 1000,
      expectStatus: 201,
    });
    const [{ n: stored }] = (await db.query(`SELECT count(*)::int AS n FROM attestations`)).rows;
    const started = Date.now();
    for (;;) {
      const [{ n }] = (await db.query(`SELECT count(*)::int AS n FROM log_entries WHERE kind = 'attestation'`)).rows;
      const [{ s }] = (await db.query(`SELECT COALESCE(max(size), 0)::int AS s FROM log_checkpoints`)).rows;
      if (n >= stored && s >= n) break;
      if (Date.now() - started > 120_000) throw new Error(`only ${n} of ${stored} attestations logged (checkpoint ${s}) after 120 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const lag = (
      await db.query(
        `SELECT EXTRACT(EPOCH FROM e.integrated_at - e.queued_at) * 1000 AS integrated,
                EXTRACT(EPOCH FROM (SELECT min(c.signed_at) FROM log_checkpoints c WHERE c.org_id = e.org_id AND c.size > e.idx) - e.queued_at) * 1000 AS covered
         FROM log_entries e WHERE e.kind = 'attestation'`,
      )
    ).rows as Array<{ integrated: number; covered: number }>;
    const integrated = lag.map((r) => Number(r.integrated)).sort((a, b) => a - b);
    const covered = lag.map((r) => Number(r.covered)).sort((a, b) => a - b);
    console.log(
      `ingest: ${result.requests} attestations in ${result.seconds.toFixed(1)} s = ${result.rps.toFixed(0)}/s (${CLIENTS} clients, errors ${result.errors}); load average ${load()}`,
    );
    console.log(`  committed -> integrated: p50 ${ms(percentile(integrated, 50))}, p99 ${ms(percentile(integrated, 99))}, max ${ms(integrated[integrated.length - 1])}`);
    console.log(`  committed -> in a signed checkpoint: p50 ${ms(percentile(covered, 50))}, p99 ${ms(percentile(covered, 99))}, max ${ms(covered[covered.length - 1])}`);

    // 2. Proofs at LEAVES leaves, in a second org.
    const orgName = `${stack.orgName}-proofs`;
    const created = await request(`${stack.baseUrl}/api/v2/admin/organizations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${stack.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: orgName, features: [], admin: { email: `admin@${orgName}.example.com` } }),
    });
    if (created.status !== 201) throw new Error(`create org: ${created.status} ${created.body}`);
    const key = JSON.parse(created.body).admin.api_key as string;
    const [{ id: orgId }] = (await db.query(`SELECT id FROM organizations WHERE name = $1`, [orgName])).rows;
    const fillStarted = Date.now();
    // Every org's log begins with its first admin's key: wait for that entry (index 0), then fill after it.
    for (const t0 = Date.now(); ; ) {
      const [{ n }] = (await db.query(`SELECT count(*)::int AS n FROM log_entries WHERE org_id = $1`, [orgId])).rows;
      if (n === 1) break;
      if (Date.now() - t0 > 60_000) throw new Error(`the org's first entry was not integrated (${n} entries)`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await db.query(`CREATE TEMP TABLE lvl (level int, start bigint, hash bytea, PRIMARY KEY (level, start))`);
    await db.query(`INSERT INTO lvl SELECT 0, idx, leaf_hash FROM log_entries WHERE org_id = $1`, [orgId]);
    await db.query(
      `WITH e AS (
         INSERT INTO log_entries (org_id, idx, kind, record_id, leaf, leaf_hash, queued_at)
         SELECT $1, s, 'bench', 'r' || s, l, sha256('\\x00'::bytea || convert_to(l, 'UTF8')), now()
         FROM generate_series(1, $2::bigint - 1) s, LATERAL (SELECT '{"id":"r' || s || '","kind":"bench","org":"' || $3 || '","v":1}' AS l) x
         RETURNING idx, leaf_hash
       ) INSERT INTO lvl SELECT 0, idx, leaf_hash FROM e`,
      [orgId, LEAVES, orgName],
    );
    for (let level = 1; 2 ** level <= LEAVES; level++) {
      const half = 2 ** (level - 1);
      await db.query(
        `INSERT INTO lvl SELECT $1, l.start, sha256('\\x01'::bytea || l.hash || r.hash)
         FROM lvl l JOIN lvl r ON r.level = l.level AND r.start = l.start + $2
         WHERE l.level = $1 - 1 AND l.start % ($2 * 2) = 0`,
        [level, half],
      );
      if (level >= STORED_FROM) {
        await db.query(`INSERT INTO log_subtrees (org_id, level, start, hash) SELECT $1, level, start, hash FROM lvl WHERE level = $2`, [orgId, level]);
      }
    }
    await db.query(`DROP TABLE lvl`);
    await db.query(`ANALYZE log_entries; ANALYZE log_subtrees`);
    let note = '';
    for (const t0 = Date.now(); ; ) {
      const res = await request(`${stack.baseUrl}/api/v2/log/${orgName}/checkpoint?size=${LEAVES}`, { headers: { Authorization: `Bearer ${key}` } });
      if (res.status === 200) {
        note = res.body;
        break;
      }
      if (Date.now() - t0 > 120_000) throw new Error(`no checkpoint at ${LEAVES}: ${res.status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const root = parseCheckpoint(note.slice(0, note.indexOf('\n\n') + 1)).rootHash;
    console.log(`proofs: ${LEAVES.toLocaleString('en')} leaves filled and signed in ${((Date.now() - fillStarted) / 1000).toFixed(0)} s; ${SAMPLES} samples each, one at a time`);
    const get = async (path: string) => {
      const t0 = process.hrtime.bigint();
      const res = await request(`${stack.baseUrl}/api/v2/log/${orgName}${path}`, { headers: { Authorization: `Bearer ${key}` } });
      const took = Number(process.hrtime.bigint() - t0) / 1e6;
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.body}`);
      return { took, body: JSON.parse(res.body) };
    };
    const times = { inclusion: [] as number[], consistency: [] as number[], 'entries (one entry: the request floor)': [] as number[] };
    for (let i = 0; i < SAMPLES; i++) {
      const index = Math.floor(Math.random() * LEAVES);
      const inc = await get(`/proof/inclusion?index=${index}&tree_size=${LEAVES}`);
      times.inclusion.push(inc.took);
      const first = 1 + Math.floor(Math.random() * (LEAVES - 1));
      const cons = await get(`/proof/consistency?first=${first}&second=${LEAVES}`);
      times.consistency.push(cons.took);
      times['entries (one entry: the request floor)'].push((await get(`/entries?start=${index}&limit=1`)).took);
      if (i === 0) {
        const leaf = `{"id":"r${index}","kind":"bench","org":"${orgName}","v":1}`;
        const ok = verifyInclusion(index, LEAVES, leafHash(Buffer.from(leaf, 'utf8')), inc.body.audit_path.map((h: string) => decodeHash(h)!), root);
        if (!ok) throw new Error('an inclusion proof did not verify against the signed root');
      }
    }
    for (const [name, list] of Object.entries(times)) {
      list.sort((a, b) => a - b);
      console.log(`  ${name} at ${LEAVES.toLocaleString('en')}: p50 ${ms(percentile(list, 50))}, p99 ${ms(percentile(list, 99))}, max ${ms(list[list.length - 1])}`);
    }
    console.log(`load average at the end ${load()}`);
  } finally {
    await db.end();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
