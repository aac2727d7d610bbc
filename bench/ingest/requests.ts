/**
 * What bench/ingest sends and what it compares against: the bare express server (the reference figure) and
 * the multipart bodies of generic attestations. Shared by run.ts (the figures) and compare.ts (two builds).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { freePort } from '../../src/database/embedded/embedded-postgres';
import { request, Stack } from './harness';
import { LoadResult, runLoad } from './load';

const BARE_SERVER = `
const express = require('express');
const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/', (req, res) => res.json({ status: 'ok' }));
app.listen(Number(process.env.PORT), '127.0.0.1');
`;

export async function startBare(): Promise<{ url: string; child: ChildProcess }> {
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

export const BOUNDARY = '----veritrail-bench-' + randomBytes(8).toString('hex');

export function multipart(dataJson: string, attachment?: Buffer): Buffer {
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
export function dataJsonOf(size: number, name: string): string {
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

/**
 * The benchmarks' request bodies: a generic attestation with a 1 KB data_json, and with an attachment of
 * `attachmentKb` KB whose first bytes differ per request (request number, pid, time), so every request stores a
 * new blob; none when 0.
 */
export function attestationBodies(attachmentKb: number): (i: number) => Buffer {
  const dataJson = dataJsonOf(1024, 'unit-test');
  if (!attachmentKb) return () => multipart(dataJson);
  const payload = randomBytes(attachmentKb * 1024);
  return (i) => {
    payload.writeUInt32BE(i, 0);
    payload.writeUInt32BE(process.pid, 4);
    payload.writeDoubleBE(Date.now(), 8);
    return multipart(dataJson, payload);
  };
}

/**
 * The profiling scripts' load: `clients` keep-alive clients posting generic attestations to a stack, client k to
 * `trail-k` of `flow`, with `body` (default: a 1 KB data_json, no attachment). Answers a run of `ms` milliseconds.
 */
export function attestationLoad(
  stack: Pick<Stack, 'baseUrl' | 'apiKey' | 'orgName'>,
  flow: string,
  body: Buffer | ((i: number) => Buffer) = attestationBodies(0),
  clients = 16,
): (ms: number) => Promise<LoadResult> {
  return (ms) =>
    runLoad({
      url: stack.baseUrl,
      method: 'POST',
      headers: { Authorization: `Bearer ${stack.apiKey}`, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      path: (i) => `/api/v2/attestations/${stack.orgName}/${flow}/trail/trail-${i % clients}/generic`,
      body,
      concurrency: clients,
      durationMs: ms,
      expectStatus: 201,
    });
}
