import { createHash } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { canonicalJson } from '../../libs/transparency/src';
import { BackfillEvidenceLog1764000200000 } from '../../src/database/migrations/1764000200000-BackfillEvidenceLog';
import { upgradeRig } from '../support/upgrade-rig';
import { waitOrGiveUp } from '../support/wait';

/**
 * The upgrade: records stored before the evidence log existed are logged once the service runs the new version.
 * Simulated on a database of its own: records are written, then the log's rows and the backfill migration's
 * record are taken out (as the cluster's superuser, past the triggers), and the service starts again.
 */
describe('evidence log backfill', () => {
  const { adminToken, db, start, stop } = upgradeRig('logbackfill');
  const sha = (value: unknown) => createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');

  it('logs every record stored before the upgrade once, gapless, each over its read route', async () => {
    const first = await start();
    const api = () => request(`http://127.0.0.1:${first.port}`);
    const created = await api()
      .post('/api/v2/admin/organizations')
      .set('Authorization', `Bearer ${adminToken}`)
      .send({ name: 'old-org', features: ['trail_moments'], admin: { email: 'ann@example.com' } })
      .expect(201);
    const auth = ['Authorization', `Bearer ${created.body.admin.api_key}`] as const;
    await api().put('/api/v2/flows/old-org').set(...auth).send({ name: 'app', description: 'd', visibility: 'private' }).expect(201);
    await api().put('/api/v2/trails/old-org/app').set(...auth).field('data_json', JSON.stringify({ name: 'r1' })).expect(201);
    for (const name of ['unit', 'scan']) {
      await api()
        .post('/api/v2/attestations/old-org/app/trail/r1/generic')
        .set(...auth)
        .field('data_json', JSON.stringify({ attestation_name: name, is_compliant: true }))
        .expect(201);
    }
    await api().put('/api/v2/environments/old-org').set(...auth).send({ name: 'prod', type: 'server' }).expect(201);
    await api()
      .put('/api/v2/environments/old-org/prod/report/server')
      .set(...auth)
      .send({ artifacts: [{ digests: { 'app.tgz': 'a'.repeat(64) }, creationTimestamp: 1700000000 }] })
      .expect(201);
    await stop(first);

    // Before the upgrade there was no log at all.
    const client = new Client({ connectionString: db().url });
    await client.connect();
    try {
      await client.query(`SET session_replication_role = replica`);
      await client.query(`DELETE FROM log_entries; DELETE FROM log_subtrees; DELETE FROM log_checkpoints; DELETE FROM log_cursors; DELETE FROM log_pending`);
      await client.query(`DELETE FROM schema_migrations WHERE name = 'BackfillEvidenceLog1764000200000'`);
      // What the backfill queues for the trail names its trail by id, so a rename before the sequencer renders it
      // cannot point it at another trail (the start below runs it again, for real).
      await new BackfillEvidenceLog1764000200000().up({ query: (sql: string) => client.query(sql) } as any);
      const refs = (await client.query(`SELECT kind, record_id, ref FROM log_pending WHERE kind = 'trail'`)).rows;
      const [trail] = (await client.query(`SELECT t.id FROM trails t JOIN flows f ON f.id = t.flow_id WHERE f.name = 'app' AND t.name = 'r1'`)).rows;
      expect(refs.map((r) => [r.record_id.split('@')[0], r.ref.trail_id])).toEqual([[trail.id, trail.id]]);
      await client.query(`DELETE FROM log_pending`);
    } finally {
      await client.end();
    }

    const second = await start();
    const get = (p: string) => request(`http://127.0.0.1:${second.port}`).get(p).set(...auth);
    const entries = await waitOrGiveUp(async () => {
      const body = (await get('/api/v2/log/old-org/entries?start=0&limit=100').expect(200)).body;
      return body.tree_size >= 4 ? (body.entries as Array<{ index: number; leaf: string }>) : undefined;
    });
    if (!entries) {
      // Says what is there and what the service said, instead of a bare timeout.
      const body = (await get('/api/v2/log/old-org/entries?start=0&limit=100')).body;
      const said = second.output().split('\n').filter((l) => /evidence log|migration|Migration/i.test(l)).join('\n');
      expect({ log: body, output: said }).toEqual({ log: { tree_size: 4 }, output: '' });
      return;
    }
    expect(entries.map((e) => e.index)).toEqual([0, 1, 2, 3]);
    const leaves = entries.map((e) => JSON.parse(e.leaf));
    expect(leaves.map((l) => l.kind).sort()).toEqual(['attestation', 'attestation', 'environment_snapshot', 'trail']);
    expect(new Set(leaves.map((l) => `${l.kind}/${l.id}`)).size).toBe(4);
    for (const leaf of leaves) {
      const route =
        leaf.kind === 'attestation'
          ? `/api/v2/attestations/old-org?attestation_id=${leaf.id}`
          : leaf.kind === 'trail'
            ? `/api/v2/trails/old-org/app/r1/moments/${leaf.moment}`
            : '/api/v2/snapshots/old-org/prod/1';
      const answer = (await get(route).expect(200)).body;
      expect({ kind: leaf.kind, sha: leaf.record_sha256 }).toEqual({ kind: leaf.kind, sha: sha(leaf.kind === 'attestation' ? answer.data[0] : answer) });
    }
  }, 240_000);
});
