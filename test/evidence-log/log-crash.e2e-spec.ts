import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { isAlive, postmasterPid, ROOT, ServiceProcess, startService } from '../support/service-process';
import { waitFor, waitOrGiveUp } from '../support/wait';

/**
 * The evidence log under kill -9: clients record attestations until the service (or its PostgreSQL) is killed
 * with SIGKILL; after a start on the same DATA_DIR the sequencer integrates what was queued, and the log holds
 * exactly one entry per stored attestation (so every acknowledged one), with indexes 0..n-1 and no duplicate.
 */
describe('evidence log after kill -9', () => {
  let dataDir: string;
  const services: ServiceProcess[] = [];
  const start = async () => {
    const service = await startService({ dataDir, env: { LOG_CHECKPOINT_INTERVAL_MS: '100', LOG_SEQUENCE_INTERVAL_MS: '20' } });
    services.push(service);
    const ready = await service.ready();
    expect({ ready, output: ready ? '' : service.output() }).toEqual({ ready: true, output: '' });
    return service;
  };

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-logcrash-'));
  });
  afterEach(async () => {
    for (const service of services.splice(0)) {
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGTERM');
      await service.exited;
    }
    const pid = postmasterPid(path.join(dataDir, 'pg'));
    if (pid && isAlive(pid)) {
      process.kill(pid, 'SIGINT');
      await waitOrGiveUp(() => (isAlive(pid) ? undefined : true), { timeoutMs: 30_000, intervalMs: 100 });
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (port: number) => request(`http://127.0.0.1:${port}`);

  /** Clients record attestations (one trail each) until `kill` has run; answers the names acknowledged. */
  async function loadUntilKilled(service: ServiceProcess, key: string, kill: () => void, killAfter: number): Promise<string[]> {
    const auth = ['Authorization', `Bearer ${key}`] as const;
    await api(service.port).put('/api/v2/flows/log-org').set(...auth).send({ name: 'app', description: 'd', visibility: 'private' }).expect(201);
    const acknowledged: string[] = [];
    const client = async (c: number) => {
      const trail = `trail-${c}`;
      await api(service.port).put('/api/v2/trails/log-org/app').set(...auth).field('data_json', JSON.stringify({ name: trail })).expect(201);
      for (let i = 0; ; i++) {
        const name = `c${c}-a${i}`;
        let status = 0;
        try {
          status = (
            await api(service.port)
              .post(`/api/v2/attestations/log-org/app/trail/${trail}/generic`)
              .set(...auth)
              .timeout(20_000)
              .field('data_json', JSON.stringify({ attestation_name: name, is_compliant: true }))
          ).status;
        } catch {
          return; // the connection died with the service
        }
        if (status !== 201) return;
        acknowledged.push(`${trail}/${name}`);
        if (acknowledged.length >= killAfter) kill();
      }
    };
    await Promise.all(Array.from({ length: 6 }, (_, c) => client(c)));
    return acknowledged;
  }

  /** After a restart: every stored attestation once in the log, gapless; answers the logged trail/name pairs. */
  async function expectLogComplete(port: number, key: string): Promise<Set<string>> {
    const auth = ['Authorization', `Bearer ${key}`] as const;
    const stored = new Map<string, string>();
    for (let page = 1; ; page++) {
      const res = await api(port).get(`/api/v2/attestations/log-org/app?per_page=100&page=${page}`).set(...auth).expect(200);
      for (const a of res.body.data as Array<{ attestation_id: string; trail_name: string; attestation_name: string }>) {
        stored.set(a.attestation_id, `${a.trail_name}/${a.attestation_name}`);
      }
      if (page >= res.body.pagination.page_count) break;
    }
    const allEntries = async () => {
      const entries: Array<{ index: number; leaf: string }> = [];
      for (let start = 0; ; start += 1000) {
        const res = await api(port).get(`/api/v2/log/log-org/entries?start=${start}&limit=1000`).set(...auth).expect(200);
        entries.push(...res.body.entries);
        if (entries.length >= res.body.tree_size) return entries;
      }
    };
    const attestationIds = (entries: Array<{ leaf: string }>) =>
      entries.map((e) => JSON.parse(e.leaf)).filter((l) => l.kind === 'attestation').map((l) => l.id as string);
    // The trails the clients began are logged too (kind trail); attestations are what this test counts.
    const entries = await waitFor(async () => {
      const all = await allEntries();
      return attestationIds(all).length >= stored.size ? all : undefined;
    }, { what: 'the sequencer integrates every committed attestation' });
    expect(entries.map((e) => e.index)).toEqual(entries.map((_, i) => i));
    const ids = attestationIds(entries);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(stored.keys()));
    // The six trails the clients began, once each.
    expect(entries.map((e) => JSON.parse(e.leaf)).filter((l) => l.kind === 'trail').map((l) => l.trail).sort()).toEqual(
      Array.from({ length: 6 }, (_, c) => `trail-${c}`),
    );
    // And a signed checkpoint covers them all.
    await waitFor(
      async () => {
        const note = (await api(port).get('/api/v2/log/log-org/checkpoint').set(...auth)).text;
        return Number(note.split('\n')[1]) === entries.length;
      },
      { what: 'a checkpoint of the whole log' },
    );
    return new Set(stored.values());
  }

  const createOrg = (port: number): string =>
    JSON.parse(
      execFileSync(process.execPath, ['scripts/admin.js', 'create-org', 'log-org', '--admin-email', 'ann@example.com'], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, VERITRAIL_URL: `http://127.0.0.1:${port}` },
        encoding: 'utf8',
      }),
    ).admin.api_key;

  it('kill -9 of the service under load: every acknowledged attestation is in the log once, indexes gapless', async () => {
    const first = await start();
    const key = createOrg(first.port);
    let killed = false;
    const acknowledged = await loadUntilKilled(
      first,
      key,
      () => {
        if (killed) return;
        killed = true;
        process.kill(first.child.pid!, 'SIGKILL');
      },
      150,
    );
    expect(killed).toBe(true);
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const second = await start();
    const logged = await expectLogComplete(second.port, key);
    expect(acknowledged.filter((a) => !logged.has(a))).toEqual([]);
  }, 240_000);

  it('kill -9 of PostgreSQL under load, then of the service: every acknowledged attestation is in the log once, indexes gapless', async () => {
    const first = await start();
    const key = createOrg(first.port);
    const clusterDir = path.join(dataDir, 'pg');
    const postmaster = postmasterPid(clusterDir)!;
    let killed = false;
    const acknowledged = await loadUntilKilled(
      first,
      key,
      () => {
        if (killed) return;
        killed = true;
        process.kill(postmaster, 'SIGKILL');
      },
      150,
    );
    expect(killed).toBe(true);
    if (first.child.exitCode === null && first.child.signalCode === null) process.kill(first.child.pid!, 'SIGKILL');
    await first.exited;
    // The postmaster's children go with it (they notice the postmaster is gone).
    await waitFor(() => !isAlive(postmaster), { what: 'the killed postmaster to be gone' });
    const second = await start();
    const logged = await expectLogComplete(second.port, key);
    expect(acknowledged.filter((a) => !logged.has(a))).toEqual([]);
  }, 240_000);
});
