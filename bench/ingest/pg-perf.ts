/**
 * Where PostgreSQL's CPU goes per ingested attestation, inside the server: runs the service, loads it with generic
 * attestations (1 KB data_json, 16 clients), and samples every process of its PostgreSQL cluster with Linux `perf`
 * (software clock, DWARF call graphs: the embedded binaries keep their symbols but not frame pointers). Each
 * sample is put in the first area of AREAS whose function is on its stack, and each area is given as a share of
 * the samples and in microseconds per request (that share of the cluster's CPU per request, measured in the same
 * window from /proc). pg_stat_statements (`ingest-pg`) times statements; this also sees what no statement's timing
 * holds: binding the parameters, the foreign-key checks and triggers run through SPI, executor start-up, commit.
 * Needs `perf` (linux-tools) and the right to trace the cluster's processes (root, or perf_event_paranoid <= 1).
 * Run: `npm run build && npx ts-node --transpile-only bench/ingest/pg-perf.ts [--seconds N] [--main <main.js>]
 * [--node <binary>] [--keep <file>]` (`--keep`: leave perf's data there, for `perf report -i <file>`).
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { machine, startStack } from './harness';
import { attestationLoad } from './requests';
import { textOptions } from '../options';

const args = process.argv.slice(2);
const option = textOptions(args);
const SECONDS = Number(option('seconds', '4'));

/**
 * Areas, first match wins (checked in this order against every function of a sample's stack). The order puts
 * work done on behalf of a statement (checks, triggers, start-up) before the statement's own execution.
 */
type Match = RegExp | ((stack: string[]) => boolean);
const AREAS: Array<[string, Match]> = [
  ['commit: WAL written and flushed (fdatasync)', /^(XLogFlush|XLogWrite|issue_xlog_fsync)$/],
  ['commit: the rest (locks released, stats, clean-up)', /^(CommitTransaction|AbortTransaction)$/],
  ['foreign-key checks (RI triggers through SPI)', /^RI_FKey_/],
  ['PL/pgSQL triggers (archived flows)', /^plpgsql_/],
  // exec_bind_message is inlined into PostgresMain in these binaries: a parameter's input function called from there.
  ['parameters in (bind: the rows\' JSON, arrays)', (stack) => stack.some((frame, i) => frame === 'exec_bind_message' || (/^Oid(Input|Receive)FunctionCall$/.test(frame) && stack[i + 1] === 'PostgresMain'))],
  ['executor start-up (initialising the plan)', /^standard_ExecutorStart$/],
  ['executor shut-down', /^(standard_ExecutorEnd|PortalDrop)$/],
  ['planning', /^(pg_plan_queries|planner|standard_planner|GetCachedPlan)$/],
  ['index entries (B-tree and hash inserts)', /^ExecInsertIndexTuples$/],
  ['row locks (trails, counters)', /^(heap_lock_tuple|ExecLockRows)$/],
  ['heap writes (insert, update)', /^(heap_insert|heap_update|heap_multi_insert)$/],
  ['WAL records (insert)', /^XLogInsert$/],
  ['JSON to rows (jsonb_to_recordset, json_to_recordset)', /^populate_recordset_worker$/],
  ['results out (rows to the client)', /^(printtup|printtup_internal_20)$/],
  ['reading and scanning (index scans, joins, sorts)', /^(ExecIndexScan|IndexNext|ExecNestLoop|ExecHashJoin|MultiExecHash|ExecSort|ExecAgg|ExecWindowAgg|CteScanNext|ExecScan)$/],
  ['the rest of execution', /^standard_ExecutorRun$/],
  ['network and protocol (reading messages, sending)', /^(pq_getbyte|pq_getbytes|pq_getmessage|secure_read|secure_write|pq_flush|internal_flush|internal_flush_buffer|SocketBackend|ReadCommand)$/],
  ['background processes (WAL writer, checkpointer, autovacuum ...)', /^(WalWriterMain|CheckpointerMain|BackgroundWriterMain|AutoVacWorkerMain|AutoVacLauncherMain|IoWorkerMain|pgarch_MainLoop|WalSummarizerMain)$/],
];

/** The stacks of `perf script`: one block per sample, a header line, then one frame per line (leaf first). */
function stacksOf(script: string): string[][] {
  const stacks: string[][] = [];
  for (const block of script.split(/\n\s*\n/)) {
    const lines = block.split('\n').filter((line) => line.trim());
    if (lines.length < 2) continue;
    stacks.push(lines.slice(1).map((line) => line.trim().split(/\s+/).slice(1).join(' ').replace(/\s*\(inlined\)$/, '').replace(/\+0x[0-9a-f]+$/, '')));
  }
  return stacks;
}

function areaOf(stack: string[]): string {
  for (const [area, match] of AREAS) {
    if (typeof match === 'function' ? match(stack) : stack.some((frame) => match.test(frame))) return area;
  }
  return 'other';
}

async function main() {
  if (spawnSync('perf', ['--version']).status !== 0) throw new Error('`perf` is not installed (linux-tools); this benchmark needs it');
  const stack = await startStack({ main: option('main', 'dist/src/main.js'), node: option('node', '') || undefined });
  const data = option('keep', '') || path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-pg-perf-')), 'perf.data');
  try {
    const load = attestationLoad(stack, 'pg-perf-flow');
    await load(3000);
    const postmaster = Number(fs.readFileSync(path.join(stack.dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = fs.readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    const perf = spawn(
      'perf',
      ['record', '-q', '-e', 'cpu-clock', '-F', '999', '--call-graph', 'dwarf,32768', '-p', [postmaster, ...children].join(','), '-o', data, '--', 'sleep', String(SECONDS)],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const recording = new Promise<number | null>((resolve) => perf.once('exit', resolve));
    const cpu0 = stack.postgresCpuSeconds();
    // The load outlasts the recording a little, so every sampled moment is under load.
    const r = await load(SECONDS * 1000 + 500);
    const cpu = stack.postgresCpuSeconds() - cpu0;
    if ((await recording) !== 0) throw new Error('perf record failed (is tracing these processes allowed? see perf_event_paranoid)');
    if (r.errors) throw new Error(`${r.errors} errors (first: ${r.firstError})`);
    const perRequestUs = (cpu * 1e6) / r.requests;
    const script = spawnSync('perf', ['script', '-i', data, '-F', 'ip,sym'], { encoding: 'utf8', maxBuffer: 1 << 30 });
    if (script.status !== 0) throw new Error(`perf script failed: ${script.stderr}`);
    const stacks = stacksOf(script.stdout);
    const counts = new Map<string, number>();
    for (const s of stacks) {
      const area = areaOf(s);
      counts.set(area, (counts.get(area) ?? 0) + 1);
    }
    console.log(
      `pg-perf: ${r.requests} requests in ${r.seconds.toFixed(1)} s (${r.rps.toFixed(0)}/s); ${machine()}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    );
    console.log(`PostgreSQL CPU ${perRequestUs.toFixed(1)} us per request; ${stacks.length} samples of its processes, by area:`);
    for (const [area, n] of [...counts].sort((a, b) => b[1] - a[1])) {
      const share = n / stacks.length;
      console.log(`${((share * perRequestUs).toFixed(1) + ' us').padStart(10)} ${((share * 100).toFixed(1) + '%').padStart(7)}  ${area}`);
    }
    const leaves = new Map<string, number>();
    for (const s of stacks) leaves.set(s[0], (leaves.get(s[0]) ?? 0) + 1);
    console.log('self time by function (top 15):');
    for (const [fn, n] of [...leaves].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
      const share = n / stacks.length;
      console.log(`${((share * perRequestUs).toFixed(1) + ' us').padStart(10)} ${((share * 100).toFixed(1) + '%').padStart(7)}  ${fn}`);
    }
    if (option('keep', '')) console.log(`perf data kept: ${data} (perf report -i ${data} --children --sort sym)`);
  } finally {
    await stack.stop();
    if (!option('keep', '')) fs.rmSync(path.dirname(data), { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
