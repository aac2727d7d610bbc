import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { processesMentioning, ServiceProcess, startService } from '../support/service-process';

const ADMIN_TOKEN = 'shutdown-test-operator-token';

/** Resolves with the first chunk of the process's output that matches, as soon as it is printed. */
function printed(service: ServiceProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const check = () => {
      const match = service.output().match(pattern);
      if (!match) return false;
      service.child.stdout!.off('data', check);
      resolve(match[0]);
      return true;
    };
    if (!check()) service.child.stdout!.on('data', check);
  });
}

/** Whether a new TCP connection to the port is refused. */
function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/**
 * SIGTERM on a real service process (`node dist/src/main.js`): a request the server is in the middle of (its
 * headers read, its body still coming: the client holds it with `Expect: 100-continue`) is answered in full,
 * a new connection is refused meanwhile, and the process then closes its database and exits 0.
 */
describe('graceful shutdown', () => {
  let dataDir: string;
  let service: ServiceProcess | undefined;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-shutdown-'));
  });
  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the request in flight, refuses new connections, then exits 0', async () => {
    service = await startService({ dataDir, env: { ADMIN_TOKEN, SHUTDOWN_GRACE_MS: '60000' } });
    expect(await service.ready()).toBe(true);
    const port = service.port;

    const created = await fetch(`http://127.0.0.1:${port}/api/v2/admin/organizations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'acme', admin: { email: 'ann@acme.example' } }),
    });
    expect(created.status).toBe(201);
    const key = ((await created.json()) as { admin: { api_key: string } }).admin.api_key;

    // A request whose headers the server has read (it answered 100 Continue) and whose body has not been sent.
    const body = JSON.stringify({ name: 'held-flow', description: 'sent after SIGTERM' });
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'PUT',
      path: '/api/v2/flows/acme',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Expect: '100-continue' },
    });
    const answer = new Promise<{ status: number; connection?: string; body: any }>((resolve, reject) => {
      req.once('response', (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: JSON.parse(text) }));
      });
      req.once('error', reject);
    });
    await new Promise<void>((resolve) => req.once('continue', resolve));

    service.child.kill('SIGTERM');
    const stopping = await printed(service, /\{[^\n]*"msg":"shutting down"[^\n]*\}/);
    expect(JSON.parse(stopping)).toMatchObject({ signal: 'SIGTERM', requests_in_flight: 1 });
    expect(await connectionRefused(port)).toBe(true);

    req.end(body);
    const res = await answer;
    expect(res.status).toBe(201);
    expect(res.body).toBe("Flow 'held-flow' was created");
    expect(res.connection).toBe('close');

    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(service.output()).toMatch(/"msg":"shutdown complete"/);
    expect(service.output()).not.toMatch(/grace period over/);
    expect(processesMentioning(dataDir)).toEqual([]); // its embedded PostgreSQL was stopped too
  });

  it('exits anyway past the grace period, saying what it left unfinished', async () => {
    service = await startService({ dataDir, env: { ADMIN_TOKEN, SHUTDOWN_GRACE_MS: '300' } });
    expect(await service.ready()).toBe(true);
    // Held forever: the body never comes.
    const req = http.request({
      host: '127.0.0.1',
      port: service.port,
      method: 'PUT',
      path: '/api/v2/flows/acme',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json', 'Content-Length': 100, Expect: '100-continue' },
    });
    req.on('error', () => undefined);
    await new Promise<void>((resolve) => req.once('continue', resolve));

    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 1, signal: null });
    const line = service.output().match(/\{[^\n]*grace period over[^\n]*\}/);
    expect(line).not.toBeNull();
    expect(JSON.parse(line![0])).toMatchObject({ level: 'error', grace_ms: 300, step: 'finishing requests', requests_in_flight: 1 });
    expect(processesMentioning(dataDir)).toEqual([]);
    req.destroy();
  });

  it('lets an evaluation running in the background record its outcome before the process exits', async () => {
    // On the shared test database, so the outcome can be read after the process is gone.
    service = await startService({
      env: { DATABASE_URL: process.env.TEST_DATABASE_URL!, ADMIN_TOKEN, EVALUATION_WAIT_MS: '0', EVALUATION_DEADLINE_MS: '1500', SHUTDOWN_GRACE_MS: '60000' },
    });
    expect(await service.ready()).toBe(true);
    const api = `http://127.0.0.1:${service.port}/api/v2`;
    const name = `shutdown-${process.pid}-${Date.now()}`;
    const org = await fetch(`${api}/admin/organizations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, features: ['evaluations'], admin: { email: `${name}@example.com` } }),
    });
    const key = ((await org.json()) as { admin: { api_key: string } }).admin.api_key;
    const json = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    expect((await fetch(`${api}/flows/${name}`, { method: 'PUT', headers: json, body: JSON.stringify({ name: 'app' }) })).status).toBe(201);
    const form = new FormData();
    form.set('data_json', JSON.stringify({ name: 't1' }));
    expect((await fetch(`${api}/trails/${name}/app`, { method: 'PUT', headers: { Authorization: `Bearer ${key}` }, body: form })).status).toBe(201);

    // Runs until its 1.5 s deadline; answered at once (EVALUATION_WAIT_MS=0) while it runs on.
    const endless = 'package policy\n\nimport rego.v1\n\nnever if {\n  some i in numbers.range(1, 20000)\n  some j in numbers.range(1, 20000)\n  i * j == -1\n}\n';
    const accepted = await fetch(`${api}/evaluations/${name}`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ context: { trails: [{ flow: 'app', trail: 't1' }] }, policy: { files: { 'p.rego': endless } } }),
    });
    const evaluation = (await accepted.json()) as { id: string; status: string };
    expect([accepted.status, evaluation.status]).toEqual([201, 'pending']);

    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });

    const db = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query(`SELECT status, error->>'kind' AS kind FROM evaluations WHERE id = $1`, [evaluation.id]);
      expect(rows).toEqual([{ status: 'failed', kind: 'policy_timeout' }]);
    } finally {
      await db.end();
    }
  });

  it('lets a notification attempt in flight finish and records it before the process exits', async () => {
    // A receiver that holds the first request until the test lets it answer.
    let arrived!: () => void;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    let answer!: () => void;
    const receiver = http.createServer((req, res) => {
      req.resume();
      arrived();
      answer = () => res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;
    try {
      service = await startService({
        env: { DATABASE_URL: process.env.TEST_DATABASE_URL!, ADMIN_TOKEN, ACTIONS_ALLOW_PRIVATE_TARGETS: 'true', SHUTDOWN_GRACE_MS: '60000' },
      });
      expect(await service.ready()).toBe(true);
      const api = `http://127.0.0.1:${service.port}/api/v2`;
      const name = `shutdown-hook-${process.pid}-${Date.now()}`;
      const org = await fetch(`${api}/admin/organizations`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, admin: { email: `${name}@example.com` } }),
      });
      const key = ((await org.json()) as { admin: { api_key: string } }).admin.api_key;
      const json = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
      expect((await fetch(`${api}/flows/${name}`, { method: 'PUT', headers: json, body: JSON.stringify({ name: 'app' }) })).status).toBe(201);
      const action = { name: 'hook', flows: ['app'], triggers: ['ON_STARTED_TRAIL'], targets: [{ type: 'WEBHOOK', webhook: hook }] };
      expect((await fetch(`${api}/actions/${name}/flows`, { method: 'PUT', headers: json, body: JSON.stringify(action) })).status).toBe(201);
      const form = new FormData();
      form.set('data_json', JSON.stringify({ name: 't1' }));
      expect((await fetch(`${api}/trails/${name}/app`, { method: 'PUT', headers: { Authorization: `Bearer ${key}` }, body: form })).status).toBe(201);

      await received; // the attempt is in flight
      service.child.kill('SIGTERM');
      await printed(service, /"msg":"shutting down"/);
      answer();
      expect(await service.exited).toEqual({ code: 0, signal: null });

      const db = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await db.connect();
      try {
        const { rows } = await db.query(
          `SELECT d.status, d.attempts FROM action_deliveries d JOIN actions a ON a.id = d.action_id
            WHERE a.org_id = (SELECT id FROM organizations WHERE name = $1)`,
          [name],
        );
        expect(rows).toEqual([{ status: 'delivered', attempts: 1 }]);
      } finally {
        await db.end();
      }
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
