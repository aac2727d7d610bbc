/**
 * A small closed-loop load generator: `concurrency` clients over one keep-alive http.Agent, each sending the
 * next request as soon as the previous answer is read, for a bounded time (and an optional bounded count).
 * Loopback only.
 */
import * as http from 'node:http';
import { percentile } from './harness';

export interface LoadSpec {
  url: string;
  method: string;
  headers?: Record<string, string>;
  /** A fixed body, or one built per request (i = request index). */
  body?: Buffer | ((i: number) => Buffer);
  /** Path (and query) per request, instead of the URL's own (i = request index). */
  path?: (i: number) => string;
  concurrency: number;
  durationMs: number;
  warmupMs?: number;
  maxRequests?: number;
  expectStatus: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  firstError?: string;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const url = new URL(spec.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw new Error('loopback only');
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.concurrency });
  let index = 0;

  const once = (): Promise<{ status: number; body?: string }> =>
    new Promise((resolve) => {
      const i = index++;
      const body = typeof spec.body === 'function' ? spec.body(i) : spec.body;
      const path = spec.path ? spec.path(i) : url.pathname + url.search;
      const headers = { ...spec.headers, ...(body ? { 'Content-Length': String(body.length) } : {}) };
      const req = http.request(
        { host: url.hostname, port: url.port, path, method: spec.method, headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: res.statusCode === spec.expectStatus ? undefined : Buffer.concat(chunks).toString() }),
          );
          res.on('error', (e) => resolve({ status: 0, body: String(e) }));
        },
      );
      req.on('error', (e) => resolve({ status: 0, body: String(e) }));
      req.end(body);
    });

  const phase = async (ms: number, record: boolean) => {
    const latencies: number[] = [];
    let requests = 0;
    let errors = 0;
    let firstError: string | undefined;
    const deadline = Date.now() + ms;
    const start = process.hrtime.bigint();
    const client = async () => {
      while (Date.now() < deadline && (!record || !spec.maxRequests || requests < spec.maxRequests)) {
        const t0 = process.hrtime.bigint();
        const res = await once();
        const dt = Number(process.hrtime.bigint() - t0) / 1e6;
        requests++;
        if (res.status !== spec.expectStatus) {
          errors++;
          firstError ??= `${res.status} ${res.body?.slice(0, 300)}`;
        }
        if (record) latencies.push(dt);
      }
    };
    await Promise.all(Array.from({ length: spec.concurrency }, client));
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    latencies.sort((a, b) => a - b);
    return { requests, errors, firstError, seconds, rps: requests / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  };

  try {
    if (spec.warmupMs) await phase(spec.warmupMs, false);
    return await phase(spec.durationMs, true);
  } finally {
    agent.destroy();
  }
}
