/**
 * Custom attestation benchmark (issue 22 "Performance": a custom type with a 1 MB JSON body and 10 jq rules,
 * p50 at most 50 ms). Run: `npm run bench -- custom [--rounds N] [--requests N] [--kb N] [--md]`.
 *
 * Against the real service (dist/src/main.js) and an embedded PostgreSQL with durable settings: defines a type
 * with a JSON Schema and 10 jq rules, then in paired rounds sends, one request at a time (latency, not
 * throughput), `--requests` custom attestations whose `attestation_data` is a ~1 MB JSON document and as many
 * generic attestations carrying the same document as `user_data` (the same bytes in, nothing judged), in
 * alternation. Reports p50/p95 of each and of the difference per round, with the load average around each
 * round: the machine is shared, so the pairs, not the absolute figures, say what judging costs.
 */
import * as http from 'node:http';
import * as os from 'node:os';
import { randomBytes } from 'node:crypto';
import { cpuSeconds, machine, percentile, request, startStack } from '../ingest/harness';
import { report, RULES, SCHEMA } from './workload';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ROUNDS = arg('rounds', 5);
const REQUESTS = arg('requests', 40);
const KB = arg('kb', 1000);
const MD = args.includes('--md');
const BOUNDARY = '----veritrail-custom-' + randomBytes(8).toString('hex');

function form(fields: Record<string, string>): Buffer {
  let out = '';
  for (const [k, v] of Object.entries(fields)) out += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  return Buffer.from(out + `--${BOUNDARY}--\r\n`);
}

const loadavg = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

async function main(): Promise<void> {
  const stack = await startStack();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { Authorization: `Bearer ${stack.apiKey}`, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
  const api = `${stack.baseUrl}/api/v2`;
  try {
    const defined = await request(`${api}/custom-attestation-types/${stack.orgName}`, {
      method: 'POST',
      headers,
      agent,
      body: Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="data_json"\r\n\r\n${JSON.stringify({ name: 'test-report', evaluator: { content_type: 'jq', rules: RULES } })}\r\n`),
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="type_schema"; filename="schema.json"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(SCHEMA)}\r\n--${BOUNDARY}--\r\n`),
      ]),
    });
    if (defined.status !== 201) throw new Error(`define type: ${defined.status} ${defined.body}`);

    const data = report(KB);
    const custom = form({ data_json: JSON.stringify({ attestation_name: 'report', type_name: 'test-report', attestation_data: data }) });
    const generic = form({ data_json: JSON.stringify({ attestation_name: 'report', is_compliant: true, user_data: data }) });
    const cpu = { custom: 0, generic: 0 };
    const send = async (kind: 'custom' | 'generic', trail: string): Promise<number> => {
      const cpuBefore = cpuSeconds(stack.pid) + stack.postgresCpuSeconds();
      const started = process.hrtime.bigint();
      const res = await request(`${api}/attestations/${stack.orgName}/bench/trail/${trail}/${kind}`, { method: 'POST', headers, agent, body: kind === 'custom' ? custom : generic });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      cpu[kind] += cpuSeconds(stack.pid) + stack.postgresCpuSeconds() - cpuBefore;
      if (res.status !== 201) throw new Error(`${kind}: ${res.status} ${res.body.slice(0, 300)}`);
      return ms;
    };
    // Warm-up (JIT, the rules worker's start, the schema compiled once), and check that the rules pass.
    for (let i = 0; i < 5; i++) {
      await send('custom', 'warm');
      await send('generic', 'warm');
    }
    const check = await request(`${api}/attestations/${stack.orgName}/bench/trail/warm/report`, { headers: { Authorization: headers.Authorization }, agent });
    const newest = JSON.parse(check.body).find((a: any) => a.attestation_type === 'custom:test-report');
    if (!newest?.is_compliant) throw new Error(`the bench data should pass every rule: ${JSON.stringify(newest?.compliance_reasons)}`);

    const rows: string[] = [];
    const allCustom: number[] = [];
    cpu.custom = 0;
    cpu.generic = 0;
    console.log(`custom attestation: ${(custom.length / 1e6).toFixed(2)} MB body, ${RULES.length} jq rules + a JSON Schema; ${machine()}`);
    for (let round = 1; round <= ROUNDS; round++) {
      const before = loadavg();
      const c: number[] = [];
      const g: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        // alternate which goes first, so drift in the machine's load falls on both alike
        if (i % 2) {
          c.push(await send('custom', `r${round}`));
          g.push(await send('generic', `r${round}`));
        } else {
          g.push(await send('generic', `r${round}`));
          c.push(await send('custom', `r${round}`));
        }
      }
      c.sort((a, b) => a - b);
      g.sort((a, b) => a - b);
      allCustom.push(...c);
      const line = `| ${round} | ${percentile(c, 50).toFixed(1)} | ${percentile(c, 95).toFixed(1)} | ${percentile(g, 50).toFixed(1)} | ${percentile(g, 95).toFixed(1)} | ${(percentile(c, 50) - percentile(g, 50)).toFixed(1)} | ${before} -> ${loadavg()} |`;
      rows.push(line);
      if (!MD) console.log(line);
    }
    allCustom.sort((a, b) => a - b);
    const header = '| round | custom p50 ms | custom p95 ms | generic (same bytes) p50 ms | generic p95 ms | p50 difference ms | load average (1, 5, 15 min) before -> after |\n| --- | --- | --- | --- | --- | --- | --- |';
    if (MD) console.log([header, ...rows].join('\n'));
    // CPU time (service process, all its threads, and PostgreSQL) per request: what a request costs the
    // machine, which the load of other programs does not inflate the way it inflates latency.
    const n = ROUNDS * REQUESTS;
    console.log(`CPU per request (service + PostgreSQL): custom ${((cpu.custom / n) * 1000).toFixed(1)} ms, generic ${((cpu.generic / n) * 1000).toFixed(1)} ms`);
    console.log(`custom p50 over all rounds: ${percentile(allCustom, 50).toFixed(1)} ms (target <= 50 ms), p95 ${percentile(allCustom, 95).toFixed(1)} ms, ${allCustom.length} requests`);
  } finally {
    agent.destroy();
    await stack.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
