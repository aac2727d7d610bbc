/**
 * Evaluations benchmark (issue: "Evaluations and controls", Performance). Run:
 * `npm run build && npx ts-node --transpile-only bench/evaluations/run.ts [--trails N] [--attestations N]
 * [--requests N] [--seconds N] [--node-args '<flags>'] [--main <build>/src/main.js] [--json]`.
 *
 * Against the real service (dist/src/main.js, LOG_LEVEL=debug so that it logs where each evaluation's time goes)
 * and an embedded PostgreSQL with durable settings:
 * 1. 100 trails of 20 attestations, the compliance policy of bench/rego, 4 concurrent clients: latency;
 *    the time split (pin, build input, store, run = hand-off + evaluate, record) from the service's own log.
 * 2. One-trail evaluations (8 clients, closed loop): throughput and latency.
 * 3. The same one-trail load while a hostile policy (a loop that only its deadline stops) is submitted without
 *    pause: the one-trail p99 against (2), measured in alternating rounds.
 * Baseline of the same run: GET trail (one trail, the document an element of the input is built from).
 * `--main` runs another build (a copy of its dist/ under bench/.work/); `--json` prints the summary as one JSON
 * line on stdout. bench/house/compare.ts takes the rig (startEvaluationRig) to run two builds in paired rounds.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { cpuSeconds, machine, percentile, request, Stack, startStack } from '../ingest/harness';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const TRAILS = arg('trails', 100);
const ATTESTATIONS = arg('attestations', 20);
const REQUESTS = arg('requests', 120);
const SECONDS = arg('seconds', 8);
/** Another build's main.js (a copy of its dist/ inside the project folder, e.g. bench/.work/<name>/src/main.js). */
const MAIN = args.includes('--main') ? args[args.indexOf('--main') + 1] : undefined;
/** Print the summary as one JSON line on stdout (the readable lines go to stderr). */
const JSON_OUT = args.includes('--json');
/** flags for the service's node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where its CPU goes) */
const NODE_ARGS = args.includes('--node-args') ? args[args.indexOf('--node-args') + 1].split(' ').filter(Boolean) : [];
const BOUNDARY = '----veritrail-eval-' + randomBytes(8).toString('hex');

const POLICY_DIR = path.join(__dirname, '../rego/policy');
function policyFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
      else if (entry.name.endsWith('.rego')) files[`${prefix}${entry.name}`] = fs.readFileSync(path.join(dir, entry.name), 'utf8');
    }
  };
  walk(POLICY_DIR, '');
  return files;
}
const SLOTS = ['pull-request', 'unit-tests', 'security-scan', 'change-approval', 'lint', 'coverage', 'sbom', 'provenance', 'e2e', 'perf'];
const ONE_TRAIL_POLICY = 'package policy\n\nimport rego.v1\n\nallow if input.trail.compliance_status.attestations_statuses["unit-tests"].is_compliant\n';
const HOSTILE_POLICY = 'package policy\n\nimport rego.v1\n\nnever if {\n  some i in numbers.range(1, 100000)\n  some j in numbers.range(1, 100000)\n  i * j == -1\n}\n';

function form(fields: Record<string, string>): Buffer {
  let out = '';
  for (const [k, v] of Object.entries(fields)) out += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  return Buffer.from(out + `--${BOUNDARY}--\r\n`);
}

const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p99: percentile(s, 99) };
};
const fmt = (x: number) => x.toFixed(1);
const median = (xs: number[]) => stats(xs).p50;

export interface LatencyStats {
  n: number;
  p50: number;
  p99: number;
}

/** The service with the benchmark's data loaded, and the measurements run.ts and bench/house/compare.ts take of it. */
export interface EvaluationRig {
  stack: Stack;
  /** GET trail, one at a time (the baseline). */
  getTrail(requests: number): Promise<LatencyStats>;
  /** REQUESTS evaluations of the compliance policy over every trail, 4 clients; CPU per evaluation of the service and its PostgreSQL. */
  allTrails(requests: number): Promise<LatencyStats & { notCompleted: number; cpuMs: number; postgresCpuMs: number; split: ReturnType<typeof timings> }>;
  /** One-trail evaluations, 8 clients, closed loop for SECONDS, alone or beside a hostile policy; service CPU per evaluation. */
  oneTrail(seconds: number, hostile: boolean): Promise<LatencyStats & { rate: number; timeouts: number; cpuMs: number; postgresCpuMs: number }>;
  stop(): Promise<void>;
}

export async function startEvaluationRig(options: {
  trails: number;
  attestations: number;
  main?: string;
  nodeArgs?: string[];
  quiet?: boolean;
  /** diagnostic only: PostgreSQL with pg_stat_statements (bench/house/statements.ts) */
  statementStats?: boolean;
}): Promise<EvaluationRig> {
  const { trails: TRAILS, attestations: ATTESTATIONS } = options;
  const lines: string[] = [];
  let partial = '';
  const stack = await startStack({
    main: options.main,
    statementStats: options.statementStats,
    env: { LOG_LEVEL: 'debug', EVALUATION_THREADS: '2', EVALUATION_DEADLINE_MS: '2000', EVALUATION_WAIT_MS: '10000' },
    nodeArgs: options.nodeArgs,
    log: (chunk) => {
      partial += chunk;
      const parts = partial.split('\n');
      partial = parts.pop()!;
      for (const line of parts) if (line.includes('evaluation') && line.includes('timings')) lines.push(line);
    },
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const api = `${stack.baseUrl}/api/v2`;
  const auth = { Authorization: `Bearer ${stack.apiKey}` };
  const json = { ...auth, 'Content-Type': 'application/json' };
  const multipart = { ...auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
  const org = stack.orgName;
  const stop = async () => {
    agent.destroy();
    await stack.stop();
  };
  try {
    const patched = await request(`${api}/admin/organizations/${org}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${stack.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ features: ['evaluations', 'controls'] }),
    });
    if (patched.status !== 200) throw new Error(`features: ${patched.status} ${patched.body}`);
    await request(`${api}/flows/${org}`, { method: 'PUT', headers: json, body: JSON.stringify({ name: 'bench' }), agent });

    // Load: TRAILS trails of ATTESTATIONS attestations each (slots cycle, so some slots have several versions).
    if (!options.quiet) console.log(`loading ${TRAILS} trails x ${ATTESTATIONS} attestations ...`);
    const jobs: Array<() => Promise<void>> = [];
    for (let t = 0; t < TRAILS; t++) {
      jobs.push(async () => {
        const trail = `t${t}`;
        await request(`${api}/trails/${org}/bench`, { method: 'PUT', headers: multipart, body: form({ data_json: JSON.stringify({ name: trail }) }), agent });
        for (let a = 0; a < ATTESTATIONS; a++) {
          const data = { attestation_name: SLOTS[a % SLOTS.length], is_compliant: (t + a) % 7 !== 0, user_data: { run: a } };
          const res = await request(`${api}/attestations/${org}/bench/trail/${trail}/generic`, { method: 'POST', headers: multipart, body: form({ data_json: JSON.stringify(data) }), agent });
          if (res.status !== 201) throw new Error(`attest: ${res.status} ${res.body}`);
        }
      });
    }
    await pool(jobs, 8);
  } catch (error) {
    await stop();
    throw error;
  }

  const evaluate = async (body: object) => {
    const started = performance.now();
    const res = await request(`${api}/evaluations/${org}`, { method: 'POST', headers: json, body: JSON.stringify(body), agent });
    const ms = performance.now() - started;
    if (res.status !== 201) throw new Error(`evaluate: ${res.status} ${res.body}`);
    return { ms, body: JSON.parse(res.body) };
  };
  const allTrailsBody = { context: { trails: Array.from({ length: TRAILS }, (_, t) => ({ flow: 'bench', trail: `t${t}` })) }, policy: { files: policyFiles() } };
  const oneTrailBody = (t: number) => ({ context: { trails: [{ flow: 'bench', trail: `t${t % TRAILS}` }] }, policy: { files: { 'p.rego': ONE_TRAIL_POLICY } } });
  let warm = false;

  return {
    stack,
    stop,
    async getTrail(requests) {
      const ms: number[] = [];
      for (let i = 0; i < requests; i++) {
        const started = performance.now();
        await request(`${api}/trails/${org}/bench/t${i % TRAILS}`, { headers: auth, agent });
        ms.push(performance.now() - started);
      }
      return stats(ms);
    },
    async allTrails(requests) {
      if (!warm) {
        for (let i = 0; i < 8; i++) await evaluate(allTrailsBody); // warm: worker threads, compiled bundle caches
        warm = true;
      }
      lines.length = 0;
      const big: number[] = [];
      const ids = new Set<string>();
      let notCompleted = 0;
      const cpu0 = cpuSeconds(stack.pid);
      const pg0 = stack.postgresCpuSeconds();
      await pool(
        Array.from({ length: requests }, () => async () => {
          const r = await evaluate(allTrailsBody);
          big.push(r.ms);
          ids.add(r.body.id);
          if (r.body.status !== 'completed') notCompleted++;
        }),
        4,
      );
      const cpuMs = ((cpuSeconds(stack.pid) - cpu0) * 1000) / requests;
      const postgresCpuMs = ((stack.postgresCpuSeconds() - pg0) * 1000) / requests;
      const split = timings(lines, ids);
      if (Number.isNaN(split.pin) && !options.quiet) console.log(`(no timing lines among ${lines.length} captured)`, lines.slice(0, 2));
      lines.length = 0;
      return { ...stats(big), notCompleted, cpuMs, postgresCpuMs, split };
    },
    async oneTrail(seconds, hostile) {
      const lat: number[] = [];
      let done = 0;
      const until = performance.now() + seconds * 1000;
      let stopped = false;
      const cpu0 = cpuSeconds(stack.pid);
      const pg0 = stack.postgresCpuSeconds();
      const hostileLoop = (async () => {
        let failed = 0;
        while (hostile && !stopped) {
          const r = await evaluate({ context: { trails: [{ flow: 'bench', trail: 't0' }] }, policy: { files: { 'p.rego': HOSTILE_POLICY } } });
          if (r.body.error?.kind === 'policy_timeout') failed++;
        }
        return failed;
      })();
      await pool(
        Array.from({ length: 8 }, (_, c) => async () => {
          for (let i = c; performance.now() < until; i += 8) {
            const r = await evaluate(oneTrailBody(i));
            lat.push(r.ms);
            done++;
          }
        }),
        8,
      );
      stopped = true;
      const timeouts = await hostileLoop;
      const cpuMs = ((cpuSeconds(stack.pid) - cpu0) * 1000) / Math.max(done, 1);
      const postgresCpuMs = ((stack.postgresCpuSeconds() - pg0) * 1000) / Math.max(done, 1);
      lines.length = 0;
      return { ...stats(lat), rate: done / seconds, timeouts, cpuMs, postgresCpuMs };
    },
  };
}

/** The benchmark's summary, as `--json` prints it (one line, last on stdout). */
export interface EvaluationSummary {
  bench: 'evaluations';
  main: string;
  machine: string;
  load_average: number[];
  get_trail: { p50_ms: number; p99_ms: number };
  all_trails: { trails: number; attestations: number; requests: number; p50_ms: number; p99_ms: number; not_completed: number; cpu_ms: number };
  one_trail: { rate_per_s: number; p50_ms: number; p99_ms: number; cpu_ms: number; hostile_p99_ratio: number };
}

async function main(): Promise<void> {
  const rig = await startEvaluationRig({ trails: TRAILS, attestations: ATTESTATIONS, main: MAIN, nodeArgs: NODE_ARGS, quiet: JSON_OUT });
  try {
    const base = await rig.getTrail(100);
    // 1. 100 trails, 4 clients.
    const b = await rig.allTrails(REQUESTS);
    const split = b.split;

    // 2 and 3: one-trail evaluations alone and beside a hostile policy, alternating rounds.
    await rig.oneTrail(2, false); // warm
    const alone: Array<Awaited<ReturnType<EvaluationRig['oneTrail']>>> = [];
    const beside: Array<Awaited<ReturnType<EvaluationRig['oneTrail']>>> = [];
    for (let round = 0; round < 3; round++) {
      alone.push(await rig.oneTrail(SECONDS, false));
      beside.push(await rig.oneTrail(SECONDS, true));
    }

    const rate = median(alone.map((r) => r.rate));
    const p99 = median(alone.map((r) => r.p99));
    const ratio = median(beside.map((r, i) => r.p99 / alone[i].p99));
    const log = JSON_OUT ? (line: string) => console.error(line) : (line: string) => console.log(line);
    log(`\nevaluations benchmark; ${machine()}`);
    log(`baseline GET trail (one trail, sequential): p50 ${fmt(base.p50)} ms, p99 ${fmt(base.p99)} ms`);
    log(
      `1. ${TRAILS} trails x ${ATTESTATIONS} attestations, compliance policy, 4 clients, ${b.n} requests: p50 ${fmt(b.p50)} ms, p99 ${fmt(b.p99)} ms` +
        ` (target p50 <= 100, p99 <= 300); not completed: ${b.notCompleted}; p50 / GET-trail p50 = ${fmt(b.p50 / base.p50)}; service CPU ${fmt(b.cpuMs)} ms per evaluation`,
    );
    log(
      `   where the time goes (medians, ms): pin ${fmt(split.pin)}, build input ${fmt(split.input)}, store ${fmt(split.store)},` +
        ` run ${fmt(split.evaluate)} (input digest ${fmt(split.digest)}, hand-off ${fmt(split.handOff)}, parse in worker ${fmt(split.parse)},` +
        ` evaluate ${fmt(split.engine)}), record ${fmt(split.record)}, claim ${fmt(split.claim)}`,
    );
    for (let i = 0; i < alone.length; i++) {
      log(
        `2/3. round ${i + 1}: one trail, 8 clients: ${fmt(alone[i].rate)}/s, p50 ${fmt(alone[i].p50)} ms, p99 ${fmt(alone[i].p99)} ms` +
          ` | beside a hostile policy: ${fmt(beside[i].rate)}/s, p99 ${fmt(beside[i].p99)} ms (${beside[i].timeouts} hostile runs timed out); p99 ratio ${fmt(beside[i].p99 / alone[i].p99)}`,
      );
    }
    log(`one trail (median of rounds): ${fmt(rate)}/s (target >= 200), p99 ${fmt(p99)} ms (target <= 50); hostile p99 ratio ${ratio.toFixed(2)} (target <= 1.5)`);
    if (JSON_OUT) {
      const summary: EvaluationSummary = {
        bench: 'evaluations',
        main: MAIN ?? 'dist/src/main.js',
        machine: machine(),
        load_average: os.loadavg(),
        get_trail: { p50_ms: base.p50, p99_ms: base.p99 },
        all_trails: { trails: TRAILS, attestations: ATTESTATIONS, requests: b.n, p50_ms: b.p50, p99_ms: b.p99, not_completed: b.notCompleted, cpu_ms: b.cpuMs },
        one_trail: {
          rate_per_s: rate,
          p50_ms: median(alone.map((r) => r.p50)),
          p99_ms: p99,
          cpu_ms: median(alone.map((r) => r.cpuMs)),
          hostile_p99_ratio: ratio,
        },
      };
      console.log(JSON.stringify(summary));
    }
  } finally {
    await rig.stop();
  }
}

/** Medians of the service's own timing lines for the given evaluations. */
function timings(lines: string[], ids: Set<string>) {
  const req: Record<string, number[]> = { pin: [], input: [], store: [] };
  const run: Record<string, number[]> = { claim: [], evaluate: [], record: [], digest: [], handOff: [], parse: [], engine: [] };
  for (const line of lines) {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (!ids.has(String(entry.evaluation))) continue;
    if (entry.msg === 'evaluation request timings') {
      req.pin.push(Number(entry.pin_ms));
      req.input.push(Number(entry.input_ms));
      req.store.push(Number(entry.store_ms));
    } else if (entry.msg === 'evaluation run timings') {
      run.claim.push(Number(entry.claim_ms));
      run.evaluate.push(Number(entry.input_and_evaluate_ms));
      run.record.push(Number(entry.record_ms));
      run.digest.push(Number(entry.input_digest_ms));
      run.handOff.push(Number(entry.hand_off_ms));
      run.parse.push(Number(entry.parse_ms));
      run.engine.push(Number(entry.evaluate_ms));
    }
  }
  return {
    pin: median(req.pin),
    input: median(req.input),
    store: median(req.store),
    claim: median(run.claim),
    evaluate: median(run.evaluate),
    record: median(run.record),
    digest: median(run.digest),
    handOff: median(run.handOff),
    parse: median(run.parse),
    engine: median(run.engine),
  };
}

async function pool(jobs: Array<() => Promise<void>>, width: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, jobs.length) }, async () => {
      while (next < jobs.length) await jobs[next++]();
    }),
  );
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
