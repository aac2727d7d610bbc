import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { DbProcess, startDbProcess } from '../support/embedded-db-process';
import { isAlive, postmasterPid, readyStatus, ROOT, ServiceProcess, startService } from '../support/service-process';
import { waitOrGiveUp } from '../support/wait';

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
      await waitOrGiveUp(() => (isAlive(pid) ? undefined : true), { timeoutMs: 30_000, intervalMs: 100 });
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The service's line about stopping its embedded PostgreSQL: what it said and which signals it sent. */
  const stopOf = (service: ServiceProcess) => {
    const lines = service.output().split('\n').filter((line) => line.includes('"signals":'));
    const line = lines.length ? JSON.parse(lines[lines.length - 1]) : undefined;
    return line && { msg: line.msg, signals: line.signals };
  };

  const createOrg = (port: number, name: string): string =>
    JSON.parse(
      execFileSync(process.execPath, ['scripts/admin.js', 'create-org', name, '--admin-email', 'ann@example.com'], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, VERITRAIL_URL: `http://127.0.0.1:${port}` },
        encoding: 'utf8',
      }),
    ).admin.api_key;

  it('kill -9 under load from concurrent clients: after a start on the same DATA_DIR every acknowledged attestation is there', async () => {
    const first = await start();
    await expectReady(first);
    const key = createOrg(first.port, 'load-org');
    const auth = ['Authorization', `Bearer ${key}`] as const;
    const api = (port: number) => request(`http://127.0.0.1:${port}`);
    await api(first.port).put('/api/v2/flows/load-org').set(...auth).send({ name: 'app', description: 'd', visibility: 'private' }).expect(201);

    const clients = 6;
    const killAfter = 150;
    const acknowledged: string[] = [];
    let killed = false;
    const kill = () => {
      if (killed) return;
      killed = true;
      process.kill(first.child.pid!, 'SIGKILL');
    };
    // Each client has its own trail and records attestations one after another until the service is gone,
    // remembering the names it got a 201 for; the kill lands while the others' requests are in flight.
    const client = async (c: number) => {
      const trail = `trail-${c}`;
      await api(first.port).put(`/api/v2/trails/load-org/app`).set(...auth).field('data_json', JSON.stringify({ name: trail })).expect(201);
      for (let i = 0; ; i++) {
        const name = `c${c}-a${i}`;
        let status = 0;
        try {
          const res = await api(first.port)
            .post(`/api/v2/attestations/load-org/app/trail/${trail}/generic`)
            .set(...auth)
            .field('data_json', JSON.stringify({ attestation_name: name, is_compliant: true }))
            .attach('attachment_file', Buffer.from(`evidence of ${name}`), 'evidence.txt');
          status = res.status;
        } catch {
          return; // the connection died with the service
        }
        if (status !== 201) return;
        acknowledged.push(`${trail}/${name}`);
        if (acknowledged.length >= killAfter) kill();
      }
    };
    await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
    expect(killed).toBe(true);
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(acknowledged.length).toBeGreaterThanOrEqual(killAfter);

    const second = await start();
    await expectReady(second);
    const stored = new Set<string>();
    for (let page = 1; ; page++) {
      const res = await api(second.port).get(`/api/v2/attestations/load-org/app?per_page=100&page=${page}`).set(...auth);
      expect(res.status).toBe(200);
      for (const a of res.body.data as { trail_name: string; attestation_name: string }[]) stored.add(`${a.trail_name}/${a.attestation_name}`);
      if (page >= res.body.pagination.page_count) break;
    }
    expect(acknowledged.filter((a) => !stored.has(a))).toEqual([]);
  }, 240_000);

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

  it('kill -9 of the service before its owner record names the postmaster: the next start still finds the orphan and stops it', async () => {
    const first = await start();
    await expectReady(first);
    const clusterDir = path.join(dataDir, 'pg');
    const orphan = postmasterPid(clusterDir)!;
    process.kill(first.child.pid!, 'SIGKILL');
    await first.exited;
    // The window this covers: a service killed between spawning its postmaster and recording it, or during a
    // restart of it, leaves a postmaster that no record names.
    fs.rmSync(path.join(dataDir, 'pg-owner.json'));
    expect(isAlive(orphan)).toBe(true);

    const second = await start();
    await expectReady(second);
    expect(isAlive(orphan)).toBe(false);
    expect(postmasterPid(clusterDir)).not.toBe(orphan);
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

  it('stopping the service after its database went away signals and waits for nothing: the postmaster is already gone', async () => {
    const service = await start();
    await expectReady(service);
    const postmaster = postmasterPid(path.join(dataDir, 'pg'))!;
    process.kill(postmaster, 'SIGINT');
    // Gone and reaped by the service (no /proc entry left, not even a zombie): the service has seen it exit.
    expect(await waitOrGiveUp(() => (fs.existsSync(`/proc/${postmaster}`) ? undefined : true), { timeoutMs: 30_000, intervalMs: 100 })).toBe(true);
    const status = await readyStatus(service.port);
    expect({ status, output: status === 503 ? '' : service.output() }).toEqual({ status: 503, output: '' });

    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    // Not a duration but what the stop did: nothing sent to, and nothing waited for, a postmaster already gone.
    expect(stopOf(service)).toEqual({ msg: 'embedded PostgreSQL had already stopped', signals: [] });
  }, 120_000);

  describe('stopping the service after a database restart is prompt', () => {
    // Before the fix, a stop after the database went away waited for a postmaster that was gone. Asserted by what
    // the stop did, not by how long it took: the service finished its own shutdown (not ended by its grace
    // period), and its own PostgreSQL, when it has one, stopped on the first signal.
    const stop = async (service: ServiceProcess) => {
      service.child.kill('SIGTERM');
      const exit = await service.exited;
      return { exit, completed: /"msg":"shutdown complete"/.test(service.output()), forced: /grace period over/.test(service.output()) };
    };

    it('its own embedded PostgreSQL restarted (a backend killed: PostgreSQL restarts every process and recovers)', async () => {
      const service = await start();
      await expectReady(service);
      const postmaster = postmasterPid(path.join(dataDir, 'pg'))!;
      const backends = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(postmaster)], { encoding: 'utf8' })
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => / veritrail /.test(line));
      expect(backends.length).toBeGreaterThan(0);
      process.kill(Number(backends[0].split(' ')[0]), 'SIGKILL');
      expect(await waitOrGiveUp(async () => ((await readyStatus(service.port)) === 503 ? true : undefined), { timeoutMs: 30_000, intervalMs: 20 })).toBe(true);
      expect(await waitOrGiveUp(async () => ((await readyStatus(service.port)) === 200 ? true : undefined), { timeoutMs: 30_000, intervalMs: 100 })).toBe(true);
      expect(postmasterPid(path.join(dataDir, 'pg'))).toBe(postmaster);

      expect(await stop(service)).toEqual({ exit: { code: 0, signal: null }, completed: true, forced: false });
      expect(stopOf(service)).toEqual({ msg: 'embedded PostgreSQL stopped', signals: ['SIGINT'] });
      expect(postmasterPid(path.join(dataDir, 'pg'))).toBeUndefined();
    }, 120_000);

    it('a PostgreSQL of its own (DATABASE_URL) stopped and started again', async () => {
      const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-restart-db-'));
      let db: DbProcess = await startDbProcess(dbDir);
      try {
        const service = await startService({ env: { DATABASE_URL: db.url, ADMIN_TOKEN: 'operator-token-for-restart-test' } });
        services.push(service);
        await expectReady(service);
        await db.stop();
        expect(await waitOrGiveUp(async () => ((await readyStatus(service.port)) === 503 ? true : undefined), { timeoutMs: 30_000, intervalMs: 100 })).toBe(true);
        db = await startDbProcess(dbDir, db.port);
        expect(await waitOrGiveUp(async () => ((await readyStatus(service.port)) === 200 ? true : undefined), { timeoutMs: 30_000, intervalMs: 100 })).toBe(true);

        expect(await stop(service)).toEqual({ exit: { code: 0, signal: null }, completed: true, forced: false });
      } finally {
        await db.stop();
        fs.rmSync(dbDir, { recursive: true, force: true });
      }
    }, 120_000);
  });
});
