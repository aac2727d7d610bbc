import { randomBytes } from 'node:crypto';
import { bearer } from '../support/factories';
import { ServiceProcess, startService } from '../support/service-process';
import { waitOrGiveUp } from '../support/wait';

/**
 * Evaluations across real service processes (`node dist/src/main.js`) on one database: the engine's limits
 * (which replace worker threads, something only a real process does), a process killed mid-evaluation, and
 * two processes sharing the work.
 */
describe('evaluations in service processes', () => {
  const adminToken = `proc-token-${randomBytes(8).toString('hex')}`;
  const running: ServiceProcess[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const service = await startService({
      env: { DATABASE_URL: process.env.TEST_DATABASE_URL!, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn', EVALUATION_DEADLINE_MS: '1500', ...env },
    });
    running.push(service);
    if (!(await service.ready())) throw new Error(`service did not start:\n${service.output()}`);
    return service;
  };
  const url = (s: ServiceProcess, path: string) => `http://127.0.0.1:${s.port}/api/v2${path}`;
  const call = async (s: ServiceProcess, method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(url(s, path), {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch((error: Error) => {
      // Say whether the service died, and what it logged, rather than only "fetch failed".
      const state = s.child.exitCode !== null || s.child.signalCode !== null ? `exited (${s.child.exitCode ?? s.child.signalCode})` : 'running';
      throw new Error(`${method} ${path}: ${error.message} (${(error.cause as Error | undefined)?.message ?? ''}); service ${state}:\n${s.output().slice(-4000)}`);
    });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };
  const world = async (s: ServiceProcess) => {
    const name = `proc-${randomBytes(5).toString('hex')}`;
    const org = await call(s, 'POST', '/admin/organizations', adminToken, { name, features: ['evaluations', 'controls'], admin: { email: `${name}@example.com` } });
    const key: string = org.body.admin.api_key;
    await call(s, 'PUT', `/flows/${name}`, key, { name: 'app' });
    const form = new FormData();
    form.set('data_json', JSON.stringify({ name: 't1' }));
    await fetch(url(s, `/trails/${name}/app`), { method: 'PUT', headers: { Authorization: `Bearer ${key}` }, body: form });
    await call(s, 'POST', `/controls/${name}`, key, { identifier: 'GATE', name: 'Release gate' });
    return { name, key };
  };
  const policy = (rego: string) => ({ context: { trails: [{ flow: 'app', trail: 't1' }] }, policy: { files: { 'p.rego': rego } } });

  afterEach(async () => {
    for (const s of running.splice(0)) {
      s.child.kill('SIGKILL');
      await s.exited;
    }
  });

  it('a policy that runs too long or allocates without bound fails by kind, and the next one still runs', async () => {
    const s = await start({ EVALUATION_MAX_HEAP_MB: '64', EVALUATION_THREADS: '1' });
    const { name, key } = await world(s);
    const slow = await call(s, 'POST', `/evaluations/${name}`, key, policy('package policy\n\nimport rego.v1\n\nnever if {\n  some i in numbers.range(1, 20000)\n  some j in numbers.range(1, 20000)\n  i * j == -1\n}\n'));
    expect([slow.status, slow.body.status, slow.body.error?.kind]).toEqual([201, 'failed', 'policy_timeout']);
    const hungry = await call(
      s,
      'POST',
      `/evaluations/${name}`,
      key,
      policy('package policy\n\nimport rego.v1\n\nxs := [[i, j, "padding"] | some i in numbers.range(1, 5000); some j in numbers.range(1, 5000)]\n'),
    );
    expect([hungry.status, hungry.body.status]).toEqual([201, 'failed']);
    expect(hungry.body.error.kind).toBe('policy_resource_limit');
    const fine = await call(s, 'POST', `/evaluations/${name}`, key, policy('package policy\n\nallow := true\n'));
    expect([fine.status, fine.body.status, fine.body.result]).toEqual([201, 'completed', { allow: true }]);
  });

  it('a process killed mid-evaluation leaves it to another; each evaluation is completed once, with one decision', async () => {
    // A accepts and dies; B (another replica on the same database) takes the work over from the recovery jobs.
    const a = await start({ EVALUATION_WAIT_MS: '0', EVALUATION_DEADLINE_MS: '1000' });
    const b = await start({ EVALUATION_DEADLINE_MS: '1000' });
    const { name, key } = await world(a);
    const busy = 'package policy\n\nimport rego.v1\n\nn := count([1 | some i in numbers.range(1, 600); some j in numbers.range(1, 600)])\n\nallow := n > 0\n';
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(a, 'POST', `/evaluations/${name}`, key, { ...policy(busy), decision: { control: 'GATE', name: `gate-${i}`, flow: 'app', trail: 't1' } });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    a.child.kill('SIGKILL');
    await a.exited;
    const done = await waitOrGiveUp(async () => {
      const states = await Promise.all(ids.map(async (id) => (await call(b, 'GET', `/evaluations/${name}/${id}`, key)).body));
      return states.every((e) => e.status !== 'pending') ? states : undefined;
    }, { timeoutMs: 60_000, intervalMs: 250 });
    expect(done?.map((e) => e.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    // A comes back: nothing runs twice.
    const again = await start({ EVALUATION_DEADLINE_MS: '1000' });
    const decisions = await call(again, 'GET', `/attestations/${name}/app?per_page=100`, key);
    const names = decisions.body.data.filter((x: any) => x.attestation_type === 'decision').map((x: any) => x.attestation_name).sort();
    expect(names).toEqual(['gate-0', 'gate-1', 'gate-2', 'gate-3']);
    for (const e of done!) {
      expect(e.decision_attestation_id).toEqual(expect.any(String));
      const replay = await call(again, 'POST', `/evaluations/${name}/${e.id}/replay`, key);
      if (!replay.body.identical) console.log(JSON.stringify({ replay: replay.body, evaluation: e }));
      expect(replay.body.identical).toBe(true);
    }
  });
});
