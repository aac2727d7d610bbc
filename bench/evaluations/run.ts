/**
 * Evaluations benchmark (issue: "Evaluations and controls", Performance). Run:
 * `npm run build && npx ts-node --transpile-only bench/evaluations/run.ts [--trails N] [--attestations N]
 * [--requests N] [--seconds N] [--node-args '<flags>']`.
 *
 * Against the real service (dist/src/main.js, LOG_LEVEL=debug so that it logs where each evaluation's time goes)
 * and an embedded PostgreSQL with durable settings:
 * 1. 100 trails of 20 attestations, the compliance policy of bench/rego, 4 concurrent clients: latency;
 *    the time split (pin, build input, store, run = hand-off + evaluate, record) from the service's own log.
 * 2. One-trail evaluations (8 clients, closed loop): throughput and latency.
 * 3. The same one-trail load while a hostile policy (a loop that only its deadline stops) is submitted without
 *    pause: the one-trail p99 against (2), measured in alternating rounds.
 * Baseline of the same run: GET trail (one trail, the document an element of the input is built from).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { machine, percentile, request, startStack } from '../ingest/harness';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const TRAILS = arg('trails', 100);
const ATTESTATIONS = arg('attestations', 20);
const REQUESTS = arg('requests', 120);
const SECONDS = arg('seconds', 8);
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

async function main(): Promise<void> {
  const lines: string[] = [];
  let partial = '';
  const stack = await startStack({
    env: { LOG_LEVEL: 'debug', EVALUATION_THREADS: '2', EVALUATION_DEADLINE_MS: '2000', EVALUATION_WAIT_MS: '10000' },
    nodeArgs: NODE_ARGS,
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
  try {
    const patched = await request(`${api}/admin/organizations/${org}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${stack.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ features: ['evaluations', 'controls'] }),
    });
    if (patched.status !== 200) throw new Error(`features: ${patched.status} ${patched.body}`);
    await request(`${api}/flows/${org}`, { method: 'PUT', headers: json, body: JSON.stringify({ name: 'bench' }), agent });

    // Load: TRAILS trails of ATTESTATIONS attestations each (slots cycle, so some slots have several versions).
    console.log(`loading ${TRAILS} trails x ${ATTESTATIONS} attestations ...`);
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

    const evaluate = async (body: object) => {
      const started = performance.now();
      const res = await request(`${api}/evaluations/${org}`, { method: 'POST', headers: json, body: JSON.stringify(body), agent });
      const ms = performance.now() - started;
      if (res.status !== 201) throw new Error(`evaluate: ${res.status} ${res.body}`);
      return { ms, body: JSON.parse(res.body) };
    };
    const allTrails = { context: { trails: Array.from({ length: TRAILS }, (_, t) => ({ flow: 'bench', trail: `t${t}` })) }, policy: { files: policyFiles() } };
    const oneTrail = (t: number) => ({ context: { trails: [{ flow: 'bench', trail: `t${t % TRAILS}` }] }, policy: { files: { 'p.rego': ONE_TRAIL_POLICY } } });

    // Baseline: GET trail.
    const getTrail: number[] = [];
    for (let i = 0; i < 100; i++) {
      const started = performance.now();
      await request(`${api}/trails/${org}/bench/t${i % TRAILS}`, { headers: auth, agent });
      getTrail.push(performance.now() - started);
    }

    // 1. 100 trails, 4 clients.
    for (let i = 0; i < 8; i++) await evaluate(allTrails); // warm: worker threads, compiled bundle caches
    lines.length = 0;
    const big: number[] = [];
    const ids = new Set<string>();
    let notCompleted = 0;
    await pool(
      Array.from({ length: REQUESTS }, () => async () => {
        const r = await evaluate(allTrails);
        big.push(r.ms);
        ids.add(r.body.id);
        if (r.body.status !== 'completed') notCompleted++;
      }),
      4,
    );
    const split = timings(lines, ids);
    if (Number.isNaN(split.pin)) console.log(`(no timing lines among ${lines.length} captured)`, lines.slice(0, 2));

    // 2 and 3: one-trail evaluations alone and beside a hostile policy, alternating rounds.
    const oneTrailRound = async (seconds: number, hostile: boolean) => {
      const lat: number[] = [];
      let done = 0;
      const until = performance.now() + seconds * 1000;
      let stop = false;
      const hostileLoop = (async () => {
        let failed = 0;
        while (hostile && !stop) {
          const r = await evaluate({ context: { trails: [{ flow: 'bench', trail: 't0' }] }, policy: { files: { 'p.rego': HOSTILE_POLICY } } });
          if (r.body.error?.kind === 'policy_timeout') failed++;
        }
        return failed;
      })();
      await pool(
        Array.from({ length: 8 }, (_, c) => async () => {
          for (let i = c; performance.now() < until; i += 8) {
            const r = await evaluate(oneTrail(i));
            lat.push(r.ms);
            done++;
          }
        }),
        8,
      );
      stop = true;
      const timeouts = await hostileLoop;
      return { ...stats(lat), rate: done / seconds, timeouts };
    };
    await oneTrailRound(2, false); // warm
    const alone: Array<ReturnType<typeof stats> & { rate: number }> = [];
    const beside: Array<ReturnType<typeof stats> & { rate: number; timeouts: number }> = [];
    for (let round = 0; round < 3; round++) {
      alone.push(await oneTrailRound(SECONDS, false));
      beside.push(await oneTrailRound(SECONDS, true));
    }

    const base = stats(getTrail);
    const b = stats(big);
    console.log(`\nevaluations benchmark; ${machine()}`);
    console.log(`baseline GET trail (one trail, sequential): p50 ${fmt(base.p50)} ms, p99 ${fmt(base.p99)} ms`);
    console.log(
      `1. ${TRAILS} trails x ${ATTESTATIONS} attestations, compliance policy, 4 clients, ${b.n} requests: p50 ${fmt(b.p50)} ms, p99 ${fmt(b.p99)} ms` +
        ` (target p50 <= 100, p99 <= 300); not completed: ${notCompleted}; p50 / GET-trail p50 = ${fmt(b.p50 / base.p50)}`,
    );
    console.log(
      `   where the time goes (medians, ms): pin ${fmt(split.pin)}, build input ${fmt(split.input)}, store ${fmt(split.store)},` +
        ` run ${fmt(split.evaluate)} (input digest ${fmt(split.digest)}, hand-off ${fmt(split.handOff)}, parse in worker ${fmt(split.parse)},` +
        ` evaluate ${fmt(split.engine)}), record ${fmt(split.record)}, claim ${fmt(split.claim)}`,
    );
    for (let i = 0; i < alone.length; i++) {
      console.log(
        `2/3. round ${i + 1}: one trail, 8 clients: ${fmt(alone[i].rate)}/s, p50 ${fmt(alone[i].p50)} ms, p99 ${fmt(alone[i].p99)} ms` +
          ` | beside a hostile policy: ${fmt(beside[i].rate)}/s, p99 ${fmt(beside[i].p99)} ms (${beside[i].timeouts} hostile runs timed out); p99 ratio ${fmt(beside[i].p99 / alone[i].p99)}`,
      );
    }
    const rate = median(alone.map((r) => r.rate));
    const p99 = median(alone.map((r) => r.p99));
    const ratio = median(beside.map((r, i) => r.p99 / alone[i].p99));
    console.log(`one trail (median of rounds): ${fmt(rate)}/s (target >= 200), p99 ${fmt(p99)} ms (target <= 50); hostile p99 ratio ${ratio.toFixed(2)} (target <= 1.5)`);
  } finally {
    agent.destroy();
    await stack.stop();
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

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
