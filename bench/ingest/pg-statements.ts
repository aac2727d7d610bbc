/**
 * Where PostgreSQL's time goes per ingested attestation: runs the service against a cluster with
 * pg_stat_statements, loads it with generic attestations (1 KB data_json, 16 clients), and lists each statement's
 * calls and execution time per request (planning included), with the cluster's CPU per request for scale.
 * Execution time is time inside the executor (lock waits included), not CPU; the shares are what this is for.
 * Run: `npm run build && npx ts-node --transpile-only bench/ingest/pg-statements.ts [--seconds N] [--main <main.js>] [--node <binary>] [--top N]
 * [--async-commit]` (`--async-commit`, diagnostic: the cluster with synchronous_commit off, to see what commits cost).
 */
import * as os from 'node:os';
import { Client } from 'pg';
import { machine, startStack } from './harness';
import { attestationLoad } from './requests';
import { textOptions } from '../options';

const args = process.argv.slice(2);
const option = textOptions(args);
const SECONDS = Number(option('seconds', '10'));
const TOP = Number(option('top', '15'));

async function main() {
  const node = option('node', '') || undefined;
  const stack = await startStack({ main: option('main', 'dist/src/main.js'), node, statementStats: true, asyncCommit: args.includes('--async-commit') });
  const db = new Client({ connectionString: stack.dbUrl });
  await db.connect();
  try {
    const load = attestationLoad(stack, 'pg-flow');
    await load(3000);
    await db.query(`SELECT pg_stat_statements_reset()`);
    const tables = async () =>
      new Map(
        (
          await db.query(
            `SELECT s.relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, (SELECT count(*) FROM pg_index i WHERE i.indrelid = s.relid) AS indexes
               FROM pg_stat_user_tables s`,
          )
        ).rows.map((row) => [row.relname as string, row]),
      );
    await new Promise((resolve) => setTimeout(resolve, 700)); // table counters are flushed about every second
    const before = await tables();
    const cpu0 = stack.postgresCpuSeconds();
    const kinds0 = stack.postgresCpuByKind();
    const r = await load(SECONDS * 1000);
    const cpu = stack.postgresCpuSeconds() - cpu0;
    const kinds = stack.postgresCpuByKind();
    if (r.errors) throw new Error(`${r.errors} errors (first: ${r.firstError})`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const after = await tables();
    const rows = await db.query(
      `SELECT calls, total_exec_time + total_plan_time AS ms, plans, total_plan_time AS plan_ms, rows, wal_bytes, query
         FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time + total_plan_time DESC`,
    );
    const per = (x: number) => x / r.requests;
    const total = rows.rows.reduce((sum, row) => sum + Number(row.ms), 0);
    console.log(
      `pg-statements: ${r.requests} requests in ${r.seconds.toFixed(1)} s (${r.rps.toFixed(0)}/s); ${machine()}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    );
    console.log(`PostgreSQL CPU ${((cpu * 1000) / r.requests).toFixed(3)} ms per request; statements' execution ${((total * 1000) / r.requests).toFixed(1)} us per request`);
    console.log(
      `  by process: ${[...kinds]
        .map(([kind, seconds]) => [kind, seconds - (kinds0.get(kind) ?? 0)] as const)
        .filter(([, seconds]) => seconds > 0)
        .sort((a, b) => b[1] - a[1])
        .map(([kind, seconds]) => `${kind} ${((seconds * 1e6) / r.requests).toFixed(1)} us`)
        .join(', ')}`,
    );
    console.log(`  us/req  calls/req  us/call  plans/call  plan us/call  WAL B/req  statement`);
    for (const row of rows.rows.slice(0, TOP)) {
      const text = String(row.query).replace(/\s+/g, ' ');
      console.log(
        `${(per(Number(row.ms)) * 1000).toFixed(1).padStart(8)} ${per(Number(row.calls)).toFixed(3).padStart(10)} ${((Number(row.ms) * 1000) / Number(row.calls)).toFixed(1).padStart(8)} ${(Number(row.plans) / Number(row.calls)).toFixed(2).padStart(11)} ${((Number(row.plan_ms) * 1000) / Math.max(1, Number(row.plans))).toFixed(1).padStart(13)} ${per(Number(row.wal_bytes)).toFixed(0).padStart(10)}  ${text.slice(0, 160)}`,
      );
    }
    console.log(`\nrows per request: table (indexes): inserted, updated (of which HOT)`);
    for (const [name, row] of after) {
      const was = before.get(name);
      const ins = per(Number(row.n_tup_ins) - Number(was?.n_tup_ins ?? 0));
      const upd = per(Number(row.n_tup_upd) - Number(was?.n_tup_upd ?? 0));
      const hot = per(Number(row.n_tup_hot_upd) - Number(was?.n_tup_hot_upd ?? 0));
      if (ins + upd < 0.01) continue;
      console.log(`  ${name} (${row.indexes}): ${ins.toFixed(3)} inserted, ${upd.toFixed(3)} updated (${hot.toFixed(3)} HOT)`);
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
