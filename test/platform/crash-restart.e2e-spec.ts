import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { isAlive, postmasterPid, readyStatus, ROOT, ServiceProcess, startService, waitUntil } from './service-process';

/**
 * The service on its embedded PostgreSQL, killed with SIGKILL (OOM killer, `kill -9`, a lost container): the
 * postmaster it started lives on as an orphan. The next start stops that orphan and comes up on the same data with
 * every acknowledged write; a second service on a data folder in use is refused in one line.
 */
describe('restart after a crash', () => {
  let dataDir: string;
  const services: ServiceProcess[] = [];
  const start = async () => {
    const service = await startService({ dataDir });
    services.push(service);
    return service;
  };
  const expectReady = async (service: ServiceProcess) => {
    const ready = await service.ready();
    expect({ ready, output: ready ? '' : service.output() }).toEqual({ ready: true, output: '' });
  };

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-crash-'));
  });
  afterEach(async () => {
    for (const service of services.splice(0)) {
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGTERM');
      await service.exited;
    }
    // A postmaster a failed test left behind is stopped before its folder goes.
    const pid = postmasterPid(path.join(dataDir, 'pg'));
    if (pid && isAlive(pid)) {
      process.kill(pid, 'SIGINT');
      await waitUntil(() => (isAlive(pid) ? undefined : true), 30_000);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('kill -9 of the service, then start again on the same DATA_DIR: the orphaned database is stopped, the service comes up with every acknowledged write', async () => {
    const first = await start();
    await expectReady(first);
    const admin = JSON.parse(
      execFileSync(process.execPath, ['scripts/admin.js', 'create-org', 'crash-org', '--admin-email', 'ann@example.com'], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, VERITRAIL_URL: `http://127.0.0.1:${first.port}` },
        encoding: 'utf8',
      }),
    );
    const key: string = admin.admin.api_key;
    const api = (port: number) => request(`http://127.0.0.1:${port}`);
    const auth = ['Authorization', `Bearer ${key}`] as const;

    await api(first.port).put('/api/v2/flows/crash-org').set(...auth).send({ name: 'app', description: 'before the crash', visibility: 'private' }).expect(201);
    await api(first.port)
      .put('/api/v2/trails/crash-org/app')
      .set(...auth)
      .field('data_json', JSON.stringify({ name: 'release-1', description: 'the trail' }))
      .expect(201);
    const attested: string[] = [];
    for (const name of ['unit-tests', 'scan', 'approval']) {
      const res = await api(first.port)
        .post('/api/v2/attestations/crash-org/app/trail/release-1/generic')
        .set(...auth)
        .field('data_json', JSON.stringify({ attestation_name: name, is_compliant: name !== 'scan', description: `${name} before the crash` }));
      expect(res.status).toBe(201);
      attested.push(name);
    }

    const clusterDir = path.join(dataDir, 'pg');
    const orphan = postmasterPid(clusterDir)!;
    process.kill(first.child.pid!, 'SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(isAlive(orphan)).toBe(true); // the scenario: PostgreSQL outlived the service that started it

    const second = await start();
    await expectReady(second);
    expect(isAlive(orphan)).toBe(false);
    expect(postmasterPid(clusterDir)).not.toBe(orphan);

    const org = await api(second.port).get('/api/v2/organizations/crash-org').set(...auth);
    expect(org.status).toBe(200);
    const flow = await api(second.port).get('/api/v2/flows/crash-org/app').set(...auth);
    expect({ status: flow.status, description: flow.body.description }).toEqual({ status: 200, description: 'before the crash' });
    const trail = await api(second.port).get('/api/v2/trails/crash-org/app/release-1').set(...auth);
    expect({ status: trail.status, name: trail.body.name }).toEqual({ status: 200, name: 'release-1' });
    const listed = await api(second.port).get('/api/v2/attestations/crash-org/app').set(...auth);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((a: { attestation_name: string }) => a.attestation_name).sort()).toEqual([...attested].sort());

    // And it stops cleanly, its database with it.
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(postmasterPid(clusterDir)).toBeUndefined();
    expect(fs.existsSync(path.join(dataDir, 'pg-owner.json'))).toBe(false);
  }, 240_000);

  it('a second service on a DATA_DIR a running service uses is refused in one line, and the first keeps serving', async () => {
    const first = await start();
    await expectReady(first);
    const clusterDir = path.join(dataDir, 'pg');
    const postmaster = postmasterPid(clusterDir);

    const second = await start();
    expect(await second.exited).toEqual({ code: 1, signal: null });
    expect(second.stderr()).toBe(
      `Start-up failed: Embedded PostgreSQL not started: another Veritrail process (pid ${first.child.pid}) is using the database in ${clusterDir}. Stop that process first, or give this one its own DATA_DIR.\n`,
    );
    expect(postmasterPid(clusterDir)).toBe(postmaster);
    expect(await readyStatus(first.port)).toBe(200);
  }, 120_000);

  it('stopping the service after its database went away takes under two seconds, not 10 s', async () => {
    const service = await start();
    await expectReady(service);
    const postmaster = postmasterPid(path.join(dataDir, 'pg'))!;
    process.kill(postmaster, 'SIGINT');
    // Gone and reaped by the service (no /proc entry left, not even a zombie): the service has seen it exit.
    expect(await waitUntil(() => (fs.existsSync(`/proc/${postmaster}`) ? undefined : true), 30_000)).toBe(true);
    expect(await readyStatus(service.port)).toBe(503);

    const began = Date.now();
    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - began).toBeLessThan(2_000);
  }, 120_000);
});
