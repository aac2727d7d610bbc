/**
 * What the evidence log's sequencer costs per attestation, measured alone: the service starts with
 * LOG_SEQUENCE_INTERVAL_MS a few seconds longer than the load; right after the round that integrates the org's
 * first entry (its first admin's key), it takes SECONDS of generic attestations (1 KB data_json, 16 clients)
 * while nothing is integrated, and then, with no load at all, waits for the next round, which integrates them.
 * The CPU the service and its PostgreSQL use in that quiet window (less what they use idle, measured after it)
 * divided by the entries integrated is the log's cost per attestation, apart from the ingest path it would
 * otherwise be mixed into. CPU is read from /proc (each thread's run time, in nanoseconds).
 * Run: `npm run build && npx ts-node --transpile-only bench/evidence-log/sequencer-cost.ts [--seconds N]
 * [--main <main.js>] [--node <node binary>] [--runs N]`.
 */
import * as os from 'node:os';
import { Client } from 'pg';
import { cpuSeconds, machine, startStack } from '../ingest/harness';
import { runLoad } from '../ingest/load';
import { attestationBodies, BOUNDARY } from '../ingest/requests';
import { textOptions } from '../options';

const args = process.argv.slice(2);
const option = textOptions(args);
const SECONDS = Number(option('seconds', '5'));
const RUNS = Number(option('runs', '1'));
const NODE = option('node', '') || undefined;
const CLIENTS = 16;
/** Rounds this far apart: the load fits between two of them, with a quiet few seconds after it. */
const INTERVAL_MS = (SECONDS + 4) * 1000;
/** How long a round may take to come: the interval, plus the integration itself. */
const WAIT_MS = INTERVAL_MS + 60_000;

/** Idle time measured after the window (shorter than an interval, so no round falls in it). */
const IDLE_MS = 3000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function once(run: number): Promise<void> {
  const stack = await startStack({ main: option('main', 'dist/src/main.js'), node: NODE, env: { LOG_SEQUENCE_INTERVAL_MS: String(INTERVAL_MS) } });
  const db = new Client({ connectionString: stack.dbUrl });
  await db.connect();
  try {
    const logged = async () => Number((await db.query(`SELECT count(*) AS n FROM log_entries WHERE kind = 'attestation'`)).rows[0].n);
    const before = await logged();
    // A round has just run when the org's first entry appears: the load starts then, a whole interval before the next.
    const waitedFrom = Date.now();
    while (Number((await db.query(`SELECT count(*) AS n FROM log_entries`)).rows[0].n) === 0) {
      if (Date.now() - waitedFrom > WAIT_MS) throw new Error('the org\'s first entry was never integrated');
      await pause(50);
    }
    const load = await runLoad({
      url: stack.baseUrl,
      method: 'POST',
      headers: { Authorization: `Bearer ${stack.apiKey}`, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      path: (i) => `/api/v2/attestations/${stack.orgName}/sequencer-flow/trail/trail-${i % CLIENTS}/generic`,
      body: attestationBodies(0),
      concurrency: CLIENTS,
      durationMs: SECONDS * 1000,
      expectStatus: 201,
    });
    if (load.errors) throw new Error(`${load.errors} errors (first: ${load.firstError})`);
    const early = (await logged()) - before;
    const service0 = cpuSeconds(stack.pid);
    const pg0 = stack.postgresCpuSeconds();
    const started = Date.now();
    let integrated = early;
    while (integrated < load.requests && Date.now() - started < WAIT_MS) {
      await pause(250);
      integrated = (await logged()) - before;
    }
    const windowS = (Date.now() - started) / 1000;
    const service1 = cpuSeconds(stack.pid);
    const pg1 = stack.postgresCpuSeconds();
    if (integrated < load.requests) throw new Error(`only ${integrated} of ${load.requests} attestations were integrated within ${WAIT_MS / 1000} s`);
    // What the two use idle (timers, job polling, this script's count queries), to take out of the window.
    await pause(IDLE_MS);
    const idleService = ((cpuSeconds(stack.pid) - service1) * 1000) / IDLE_MS;
    const idlePg = ((stack.postgresCpuSeconds() - pg1) * 1000) / IDLE_MS;
    const entries = integrated - early;
    const per = (cpu: number, idle: number) => (((cpu - idle * windowS) * 1e6) / entries).toFixed(1);
    console.log(
      `run ${run}: ${load.requests} attestations taken in ${SECONDS} s (${early} integrated during the load); ${entries} integrated in a window of ${windowS.toFixed(1)} s: ` +
        `service ${per(service1 - service0, idleService)} us, PostgreSQL ${per(pg1 - pg0, idlePg)} us per entry ` +
        `(idle: service ${(idleService * 1000).toFixed(1)} ms/s, PostgreSQL ${(idlePg * 1000).toFixed(1)} ms/s)`,
    );
  } finally {
    await db.end();
    await stack.stop();
  }
}

async function main() {
  console.log(`sequencer-cost: ${machine()}${NODE ? `; service on ${NODE}` : ''}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  for (let run = 1; run <= RUNS; run++) await once(run);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
