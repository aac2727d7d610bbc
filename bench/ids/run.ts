/**
 * What an attestation's id costs PostgreSQL once the table is large: random ids (UUID version 4) against ids
 * that grow with time (version 7, `orderedUuid`, what the service makes). A table keyed like `attestations`
 * (`PRIMARY KEY (id, org_id)`, a 200-byte row) is filled with PREFILL rows, a CHECKPOINT is taken, and ROWS more
 * are inserted in statements of 16 (as the group commit writes them) on one connection; it prints the time, the
 * backend's CPU per row (nanoseconds, `cpuSeconds`) and the WAL written per row, each kind of id twice,
 * alternating. A random id lands on a random page of the index; after a checkpoint the first change to each
 * page writes all of it to the WAL. Run: `npm run bench -- ids [--prefill N] [--rows N]`.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';
import { orderedUuid } from '../../src/database/ordered-uuid';
import { cpuSeconds, machine } from '../ingest/harness';
import { numberOptions } from '../options';

const args = process.argv.slice(2);
const option = numberOptions(args);
const PREFILL = option('prefill', 2_000_000);
const ROWS = option('rows', 200_000);
const GROUP = 16;

/** SQL for PREFILL ids of each kind: random, or one per past millisecond, oldest first (as version 7 ids sort). */
const PREFILLED_ID = {
  random: `gen_random_uuid()`,
  ordered: `(lpad(to_hex((extract(epoch from now()) * 1000)::bigint - $2 + g), 12, '0') || replace(substr(gen_random_uuid()::text, 15), '-', ''))::uuid`,
};

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-ids-'));
  const db = await startEmbeddedPostgres({ dataDir: dir });
  const client = new Client({ connectionString: db.url });
  try {
    await client.connect();
    console.log(`ids: ${PREFILL} rows before, ${ROWS} inserted in statements of ${GROUP}; ${machine()}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const [{ pid }] = (await client.query(`SELECT pg_backend_pid() AS pid`)).rows;
    const org = randomUUID();
    for (const kind of ['random', 'ordered', 'random', 'ordered'] as const) {
      const make = kind === 'random' ? () => randomUUID() : () => orderedUuid();
      await client.query(`DROP TABLE IF EXISTS ids_bench`);
      await client.query(`CREATE TABLE ids_bench (id uuid, org_id uuid, pad text, PRIMARY KEY (id, org_id))`);
      await client.query(`INSERT INTO ids_bench SELECT ${PREFILLED_ID[kind]}, $1, repeat('x', 200) FROM generate_series(1, $2::bigint) g`, [org, PREFILL]);
      await client.query(`CHECKPOINT`);
      const [{ lsn }] = (await client.query(`SELECT pg_current_wal_lsn() AS lsn`)).rows;
      const cpu = cpuSeconds(pid);
      const started = process.hrtime.bigint();
      for (let i = 0; i < ROWS; i += GROUP) {
        const ids = Array.from({ length: Math.min(GROUP, ROWS - i) }, make);
        await client.query(`INSERT INTO ids_bench SELECT unnest($1::uuid[]), $2, repeat('x', 200)`, [ids, org]);
      }
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const cpuUs = ((cpuSeconds(pid) - cpu) * 1e6) / ROWS;
      const [{ wal }] = (await client.query(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS wal`, [lsn])).rows;
      console.log(`${kind.padEnd(8)} ${ms.toFixed(0)} ms, backend CPU ${cpuUs.toFixed(1)} us per row, WAL ${(Number(wal) / ROWS).toFixed(0)} B per row`);
    }
  } finally {
    await client.end().catch(() => undefined);
    await db.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
