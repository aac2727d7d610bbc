import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceProcess, startService } from '../support/service-process';

const ADMIN_TOKEN = 'tracing-test-operator-token';

interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

/** A real OTLP/HTTP receiver: takes `POST /v1/traces` (JSON), keeps every span, answers 200. */
async function startOtlpReceiver() {
  const spans: Array<OtlpSpan & { service?: unknown }> = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      const body = JSON.parse(text);
      for (const rs of body.resourceSpans ?? []) {
        const service = rs.resource?.attributes?.find((a: any) => a.key === 'service.name')?.value?.stringValue;
        for (const ss of rs.scopeSpans ?? []) for (const span of ss.spans ?? []) spans.push({ ...span, service });
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
};

/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, a real service process sends its spans over OTLP/HTTP to a receiver
 * the test runs: a server span per request named after the route template, with the route and the status,
 * and database spans under it.
 */
describe('OpenTelemetry traces', () => {
  let dataDir: string;
  let service: ServiceProcess | undefined;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-tracing-'));
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await receiver?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exports a server span with the route template and status, and the queries it ran', async () => {
    service = await startService({ dataDir, env: { ADMIN_TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'veritrail-under-test' } });
    expect(await service.ready()).toBe(true);
    const base = `http://127.0.0.1:${service.port}`;
    const created = await fetch(`${base}/api/v2/admin/organizations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'acme', admin: { email: 'ann@acme.example' } }),
    });
    expect(created.status).toBe(201);
    const key = ((await created.json()) as { admin: { api_key: string } }).admin.api_key;
    const missing = await fetch(`${base}/api/v2/flows/acme/no-such-flow`, { headers: { Authorization: `Bearer ${key}` } });
    expect(missing.status).toBe(404);

    // The process's own series are there too (test apps in jest leave them out).
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(metrics).toMatch(/^veritrail_http_requests_total\{method="GET",route="\/api\/v2\/flows\/:org\/:flow",status="404"\} 1$/m);

    // Shutdown sends the spans still buffered.
    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });

    expect(receiver.paths.every((p) => p.startsWith('POST /v1/traces application/json'))).toBe(true);
    const server = receiver.spans.filter((s) => s.kind === 2);
    const get = server.find((s) => s.name === 'GET /api/v2/flows/:org/:flow');
    expect(get).toBeDefined();
    expect(attr(get!, 'http.route')).toBe('/api/v2/flows/:org/:flow');
    expect(Number(attr(get!, 'http.status_code') ?? attr(get!, 'http.response.status_code'))).toBe(404);
    expect(get!.service).toBe('veritrail-under-test');
    // The queries the request ran (credential, org, flow lookups) are spans of the same trace.
    const queries = receiver.spans.filter((s) => s.traceId === get!.traceId && attr(s, 'db.system') === 'postgresql');
    expect(queries.length).toBeGreaterThanOrEqual(1);
    // Probes and scrapes are not traced.
    expect(server.length).toBeGreaterThanOrEqual(2);
    expect(server.some((s) => /\/ready|\/health|\/metrics/.test(`${s.name} ${attr(s, 'http.target')} ${attr(s, 'url.path')} ${attr(s, 'http.route')}`))).toBe(false);
  });
});
