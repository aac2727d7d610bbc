/**
 * Ingest benchmark (issue 3 "Performance"). Run: `npm run build && npx ts-node --transpile-only bench/ingest/run.ts
 * [--seconds N] [--clients N] [--flows N] [--md]`.
 *
 * In one run, with the same load generator (bench/ingest/load.ts: N keep-alive clients, closed loop, loopback):
 *   1. a bare express route answering constant JSON (child process), the reference figure;
 *   2. the real service (dist/src/main.js, child process, embedded PostgreSQL with durable settings) taking
 *      generic attestations with a 1 KB data_json and no attachment;
 *   3. the same with a 100 KB attachment (distinct content per request, so every request stores a new blob).
 * Targets: (2) >= 1/4 of (1); (3) >= 500 req/s; zero errors.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../src/database/embedded/embedded-postgres';
import { cpuSeconds, machine, request, startStack } from './harness';
import { LoadResult, runLoad } from './load';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 10);
const CLIENTS = arg('clients', 16);
/** Flows the clients spread over (each client has its own trail). 1 = everyone in one flow. */
const FLOWS = arg('flows', 1);
const MD = args.includes('--md');
/** --small-only: skip the attachment phase (for profiling the 1 KB path alone). */
const SMALL_ONLY = args.includes('--small-only');

const BARE_SERVER = `
const express = require('express');
const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/', (req, res) => res.json({ status: 'ok' }));
app.listen(Number(process.env.PORT), '127.0.0.1');
`;

async function startBare(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', BARE_SERVER], {
    cwd: path.resolve(__dirname, '../..'),
    env: { ...process.env, PORT: String(port) },
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await request(url)).status === 200) return { url, child };
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('bare express server did not start');
}

const BOUNDARY = '----veritrail-bench-' + randomBytes(8).toString('hex');

function multipart(dataJson: string, attachment?: Buffer): Buffer {
  const parts: Buffer[] = [
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="data_json"\r\n\r\n${dataJson}\r\n`),
  ];
  if (attachment) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="attachment_file"; filename="report.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      attachment,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

/** A data_json of exactly `size` bytes. */
function dataJsonOf(size: number, name: string): string {
  const base = {
    attestation_name: name,
    is_compliant: true,
    description: 'benchmark attestation',
    origin_url: 'https://ci.example.com/runs/1',
    git_commit_info: { sha1: 'ae08fc6a5c963ae8dfaa0c27d8e5de9980d433b6', branch: 'main', author: 'Bench <bench@example.com>' },
    user_data: { filler: '' },
  };
  const without = JSON.stringify(base).length;
  base.user_data.filler = 'x'.repeat(Math.max(0, size - without));
  return JSON.stringify(base);
}

function line(label: string, r: LoadResult): string {
  return `${label.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  ${r.requests} requests, ${r.errors} errors${r.firstError ? ` (first: ${r.firstError})` : ''}`;
}

async function main() {
  console.log(`ingest benchmark: ${CLIENTS} clients, ${SECONDS}s per phase, ${FLOWS} flow(s); ${machine()}`);
  const bare = await startBare();
  let bareResult: LoadResult;
  try {
    bareResult = await runLoad({ url: bare.url, method: 'GET', concurrency: CLIENTS, durationMs: SECONDS * 1000, warmupMs: 3000, expectStatus: 200 });
  } finally {
    bare.child.kill('SIGTERM');
  }
  console.log(line('bare express (constant JSON)', bareResult));

  const stack = await startStack({
    asyncCommit: args.includes('--async-commit'),
    // --cpu-prof DIR: write a V8 CPU profile of the service (for finding hot spots, not for figures).
    nodeArgs: args.includes('--cpu-prof') ? ['--cpu-prof', `--cpu-prof-dir=${args[args.indexOf('--cpu-prof') + 1]}`] : [],
  });
  try {
    const headers = { Authorization: `Bearer ${stack.apiKey}`, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
    const pathFor = (kind: string) => (i: number) => {
      const client = i % CLIENTS;
      return `/api/v2/attestations/${stack.orgName}/${kind}-flow-${client % FLOWS}/trail/trail-${client}/generic`;
    };
    const small = multipart(dataJsonOf(1024, 'unit-test'));
    if (Buffer.byteLength(dataJsonOf(1024, 'unit-test')) !== 1024) throw new Error('data_json is not 1 KB');
    let cpu = cpuSeconds(stack.pid);
    const cpuPerRequest = (r: LoadResult) => {
      const now = cpuSeconds(stack.pid);
      const ms = ((now - cpu) * 1000) / r.requests;
      cpu = now;
      return ms;
    };
    const noAttachment = await runLoad({
      url: stack.baseUrl,
      method: 'POST',
      headers,
      path: pathFor('plain'),
      body: small,
      concurrency: CLIENTS,
      durationMs: SECONDS * 1000,
      warmupMs: 3000,
      expectStatus: 201,
    });
    const cpuSmall = cpuPerRequest(noAttachment);
    console.log(line('generic, 1 KB data_json', noAttachment));

    if (SMALL_ONLY) {
      console.log(`service CPU per request (incl. warm-up): ${cpuSmall.toFixed(2)} ms (1 KB)`);
      return;
    }
    const payload = randomBytes(100 * 1024);
    const dataJson = dataJsonOf(1024, 'report');
    const withAttachment = await runLoad({
      url: stack.baseUrl,
      method: 'POST',
      headers,
      path: pathFor('files'),
      // distinct content per request: every request hashes and stores a new 100 KB blob
      body: (i) => {
        payload.writeUInt32BE(i, 0);
        payload.writeUInt32BE(process.pid, 4);
        return multipart(dataJson, payload);
      },
      concurrency: CLIENTS,
      durationMs: SECONDS * 1000,
      warmupMs: 3000,
      expectStatus: 201,
    });
    const cpuLarge = cpuPerRequest(withAttachment);
    console.log(line('generic, 1 KB + 100 KB attachment', withAttachment));
    console.log(`service CPU per request (incl. warm-up): ${cpuSmall.toFixed(2)} ms (1 KB), ${cpuLarge.toFixed(2)} ms (100 KB); load average now ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

    const ratio = noAttachment.rps / bareResult.rps;
    const ok1 = ratio >= 0.25 && noAttachment.errors === 0;
    const ok2 = withAttachment.rps >= 500 && withAttachment.errors === 0;
    console.log(`ratio generic / bare: ${ratio.toFixed(3)} (target >= 0.25) ${ok1 ? 'MET' : 'NOT MET'}`);
    console.log(`100 KB attachment: ${withAttachment.rps.toFixed(0)} req/s (target >= 500) ${ok2 ? 'MET' : 'NOT MET'}`);
    if (MD) {
      console.log(`\n| case | req/s | p50 | p99 | requests | errors |\n|---|---|---|---|---|---|`);
      for (const [label, r] of [
        ['bare express, constant JSON', bareResult],
        ['generic, 1 KB data_json', noAttachment],
        ['generic, 1 KB + 100 KB attachment', withAttachment],
      ] as const) {
        console.log(`| ${label} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.requests} | ${r.errors} |`);
      }
      console.log(`\nratio generic/bare ${ratio.toFixed(3)}`);
    }
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
