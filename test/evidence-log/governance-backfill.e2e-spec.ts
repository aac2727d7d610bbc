import { createHash } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { canonicalJson } from '../../libs/transparency/src';
import { upgradeRig } from '../support/upgrade-rig';
import { waitOrGiveUp } from '../support/wait';

/**
 * The upgrade for policy and control versions: a policy version and a control stored before they were logged
 * are logged once the service runs the new version, each over its per-version route. Simulated on a database of
 * its own: the records are written, then the log's rows, the new tables and their migrations' records are taken
 * out (as the cluster's superuser, past the triggers), and the service starts again.
 */
describe('evidence log backfill of policy and control versions', () => {
  const { adminToken, db, start, stop } = upgradeRig('govbackfill');
  const sha = (value: unknown) => createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');

  it('logs the policy versions and controls stored before, each over its per-version route', async () => {
    const first = await start();
    const api = () => request(`http://127.0.0.1:${first.port}`);
    const created = await api()
      .post('/api/v2/admin/organizations')
      .set('Authorization', `Bearer ${adminToken}`)
      .send({ name: 'gov-org', features: ['controls'], admin: { email: 'ann@example.com' } })
      .expect(201);
    const auth = ['Authorization', `Bearer ${created.body.admin.api_key}`] as const;
    await api()
      .put('/api/v2/policies/gov-org')
      .set(...auth)
      .field('payload', JSON.stringify({ name: 'prod', description: '', type: 'env', comment: 'c' }))
      .attach('policy_file', Buffer.from('_schema: https://docs.kosli.com/schemas/policy/v1\nartifacts:\n  provenance:\n    required: true\n'), 'p.yaml')
      .expect(201);
    await api().post('/api/v2/controls/gov-org').set(...auth).send({ identifier: 'SDLC-1', name: 'Tests pass' }).expect(201);
    await api().put('/api/v2/controls/gov-org/SDLC-1').set(...auth).send({ description: 'every test' }).expect(200);
    await stop(first);

    // Before the upgrade: no log, no kept control versions, no credential events.
    const client = new Client({ connectionString: db().url });
    await client.connect();
    try {
      await client.query(`SET session_replication_role = replica`);
      await client.query(`DELETE FROM log_entries; DELETE FROM log_subtrees; DELETE FROM log_checkpoints; DELETE FROM log_pending`);
      await client.query(`DROP TABLE control_versions; DROP TABLE credential_events`);
      await client.query(`DELETE FROM schema_migrations WHERE name IN ('CreateControlVersions1764110000000', 'CreateCredentialEvents1764110100000', 'BackfillGovernanceLog1764110200000')`);
    } finally {
      await client.end();
    }

    const second = await start();
    const get = (p: string) => request(`http://127.0.0.1:${second.port}`).get(p).set(...auth);
    const entries = await waitOrGiveUp(async () => {
      const body = (await get('/api/v2/log/gov-org/entries?start=0&limit=100').expect(200)).body;
      return body.tree_size >= 2 ? (body.entries as Array<{ index: number; leaf: string }>) : undefined;
    });
    if (!entries) {
      const body = (await get('/api/v2/log/gov-org/entries?start=0&limit=100')).body;
      expect({ log: body }).toEqual({ log: { tree_size: 2 } });
      return;
    }
    expect(entries.map((e) => e.index)).toEqual([0, 1]);
    const leaves = entries.map((e) => JSON.parse(e.leaf));
    expect(leaves.map((l) => `${l.kind} ${l.id}`)).toEqual(['policy_version prod@1', 'control_version SDLC-1@2']);
    const policy = (await get('/api/v2/policies/gov-org/prod/versions/1').expect(200)).body;
    expect(leaves[0].record_sha256).toBe(sha(policy));
    // The control's version at the upgrade is kept as it was then; its earlier version was never kept.
    const control = (await get('/api/v2/controls/gov-org/SDLC-1/versions/2').expect(200)).body;
    expect(control).toMatchObject({ identifier: 'SDLC-1', version: 2, description: 'every test', change: 'recorded' });
    expect(leaves[1].record_sha256).toBe(sha(control));
    await get('/api/v2/controls/gov-org/SDLC-1/versions/1').expect(404);
  }, 240_000);
});
