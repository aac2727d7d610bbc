/**
 * JUnit attestation benchmark (issue 22 "Performance": a JUnit attestation with a 5 MB report of 20,000 test
 * cases, p50 at most 150 ms end to end, flat memory; a 50 MB report gets 413). Run: `npm run build && npx
 * ts-node --transpile-only bench/junit/run.ts [--requests N] [--cases N] [--generic] [--main <build>/src/main.js] [--md]`.
 *
 * Posts the same kind of report `--requests` times, one request at a time (latency, not throughput), as
 * `kosli attest junit` does (multipart `data_json` + the XML as `attachment_file`), each report with distinct
 * bytes (so every one is hashed, parsed and stored anew), against the real service (dist/src/main.js) and an
 * embedded PostgreSQL with durable settings. Memory: the service's RSS sampled every 50 ms during the run;
 * "flat" means the peak does not grow with the number of requests (first half vs second half).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import { randomBytes } from 'node:crypto';
import { cpuSeconds, machine, percentile, request, startStack } from '../ingest/harness';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const REQUESTS = arg('requests', 40);
const CASES = arg('cases', 20_000);
const MD = args.includes('--md');
/** The same bodies to the generic route (is_compliant added): what the junit type costs on top of storing the file. */
const GENERIC = args.includes('--generic');
/** Another build's main.js (a copy of dist/ under bench/.work/), to compare builds in turns; default dist/src/main.js. */
const MAIN = args.includes('--main') ? args[args.indexOf('--main') + 1] : undefined;
const BOUNDARY = '----veritrail-junit-' + randomBytes(8).toString('hex');

/** A jest-junit style report: suites of 100 cases, one failure in 1,000, each case ~250 bytes with its output. */
function report(run: number): Buffer {
  const parts: string[] = [`<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jest tests" tests="${CASES}">\n`];
  for (let s = 0; s < CASES / 100; s++) {
    parts.push(`  <testsuite name="suite ${s} of run ${run}" tests="100" time="1.5">\n`);
    for (let c = 0; c < 100; c++) {
      const i = s * 100 + c;
      const body = i % 1000 === 0 ? `<failure>AssertionError: expected ${i} to equal ${i + 1}\n    at suite${s}.spec.ts:${c}:7</failure>` : `<system-out>run ${run} case ${i} ${'.'.repeat(110)}</system-out>`;
      parts.push(`    <testcase classname="suite${s}.module${c % 7}" name="case ${i} does what it says" time="0.00${c % 10}">${body}</testcase>\n`);
    }
    parts.push('  </testsuite>\n');
  }
  parts.push('</testsuites>\n');
  return Buffer.from(parts.join(''));
}

function form(dataJson: string, file: Buffer, filename: string): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="data_json"\r\n\r\n${dataJson}\r\n`),
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="attachment_file"; filename="${filename}"\r\nContent-Type: application/xml\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function main(): Promise<void> {
  const stack = await startStack({ main: MAIN });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { Authorization: `Bearer ${stack.apiKey}`, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
  const url = `${stack.baseUrl}/api/v2/attestations/${stack.orgName}/bench/trail/t1/${GENERIC ? 'generic' : 'junit'}`;
  const dataJson = GENERIC
    ? JSON.stringify({ attestation_name: 'unit', is_compliant: false })
    : JSON.stringify({ attestation_name: 'unit', junit_results: [{ name: 'all', failures: CASES / 1000, errors: 0, skipped: 0, total: CASES, duration: 300 }] });
  try {
    // Bodies are built before timing; two warm-up requests (JIT, pools).
    const bodies = Array.from({ length: REQUESTS + 2 }, (_, i) => form(dataJson, report(i), `junit-${i}.xml`));
    const reportBytes = bodies[0].length;
    const rss: number[] = [];
    const sampler = setInterval(() => rss.push(rssMb(stack.pid)), 50);
    const times: number[] = [];
    let cpu0 = 0;
    let pg0 = 0;
    for (let i = 0; i < bodies.length; i++) {
      if (i === 2) {
        cpu0 = cpuSeconds(stack.pid);
        pg0 = stack.postgresCpuSeconds();
      }
      const started = process.hrtime.bigint();
      const res = await request(url, { method: 'POST', headers, body: bodies[i], agent });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${res.body}`);
      if (i >= 2) times.push(ms);
    }
    clearInterval(sampler);
    // CPU per request (service process, and this stack's PostgreSQL): the cost a quiet machine's latency is made of.
    const serviceCpuMs = ((cpuSeconds(stack.pid) - cpu0) * 1000) / REQUESTS;
    const postgresCpuMs = ((stack.postgresCpuSeconds() - pg0) * 1000) / REQUESTS;
    const half = Math.floor(rss.length / 2);
    const peak = (xs: number[]) => Math.round(Math.max(...xs));

    // 50 MB: refused with 413, the service still answers afterwards.
    const huge = form(dataJson, Buffer.alloc(50 * 1024 * 1024, 0x20), 'huge.xml');
    const tooLarge = await request(url, { method: 'POST', headers, body: huge, agent: new http.Agent() }).catch((e: Error) => ({ status: 0, body: e.message }));
    const after = await request(`${stack.baseUrl}/health`);

    const sorted = [...times].sort((a, b) => a - b);
    const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
    const line = (label: string, value: string) => (MD ? `| ${label} | ${value} |` : `${label.padEnd(34)} ${value}`);
    console.log(MD ? '| measure | value |\n|---|---|' : `junit${GENERIC ? ' (generic route, same bodies)' : ''}: ${REQUESTS} requests, ${CASES} cases, ${(reportBytes / 1e6).toFixed(1)} MB bodies; ${machine()}`);
    console.log(line('p50 / p95 / max (ms)', `${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 95).toFixed(1)} / ${sorted[sorted.length - 1].toFixed(1)}`));
    console.log(line('CPU per request: service / PostgreSQL (ms)', `${serviceCpuMs.toFixed(1)} / ${postgresCpuMs.toFixed(1)}`));
    console.log(line('service RSS peak, 1st / 2nd half (MB)', `${peak(rss.slice(0, half))} / ${peak(rss.slice(half))}`));
    console.log(line('50 MB report', `${tooLarge.status}, then /health ${after.status}`));
    console.log(line('load average (1/5/15 min) at the end', load));
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
