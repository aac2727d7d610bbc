/**
 * What PostgreSQL runs per evaluation, build by build: a diagnostic for a difference in PostgreSQL CPU that
 * bench/house/compare.ts shows. Run: `npx ts-node --transpile-only bench/house/statements.ts <A>/src/main.js
 * [<B>/src/main.js ...] [--requests N] [--top N] [--trails N] [--attestations N]`. Each build in turn: the evaluations benchmark's data (100
 * trails x 20 attestations) on a cluster with pg_stat_statements, warm evaluations, then REQUESTS evaluations of
 * the compliance policy over all trails at 4 clients; statements per evaluation (calls, rows, execution ms) by
 * statement, the TOP first by time. Calls and rows do not depend on the machine's load; times do.
 */
import * as path from 'node:path';
import { Client } from 'pg';
import { startEvaluationRig } from '../evaluations/run';
import { numberOptions } from '../options';

const args = process.argv.slice(2);
const option = numberOptions(args);
const builds = args.filter((a) => a.endsWith('.js'));
const REQUESTS = option('requests', 120);
const TOP = option('top', 12);
const TRAILS = option('trails', 100);
const ATTESTATIONS = option('attestations', 20);

async function main(): Promise<void> {
  for (const build of builds) {
    const rig = await startEvaluationRig({ trails: TRAILS, attestations: ATTESTATIONS, main: path.resolve(build), quiet: true, statementStats: true });
    const db = new Client({ connectionString: rig.stack.dbUrl });
    try {
      await db.connect();
      await rig.allTrails(16);
      await db.query(`SELECT pg_stat_statements_reset()`);
      await rig.allTrails(REQUESTS);
      const rows = (
        await db.query(
          `SELECT calls, rows, total_exec_time AS ms, regexp_replace(query, '\\s+', ' ', 'g') AS query
           FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC`,
        )
      ).rows as Array<{ calls: string; rows: string; ms: number; query: string }>;
      const per = (x: number) => (x / REQUESTS).toFixed(2);
      const calls = rows.reduce((s, r) => s + Number(r.calls), 0);
      const ms = rows.reduce((s, r) => s + r.ms, 0);
      console.log(`\n${build}: ${rows.length} distinct statements; per evaluation ${per(calls)} calls, ${per(ms)} ms executing`);
      for (const r of rows.slice(0, TOP)) {
        console.log(`  ${per(Number(r.calls)).padStart(6)} calls ${per(Number(r.rows)).padStart(8)} rows ${per(r.ms).padStart(7)} ms  ${r.query.slice(0, 150)}`);
      }
    } finally {
      await db.end().catch(() => undefined);
      await rig.stop();
    }
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
