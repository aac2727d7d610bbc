import { createHash } from 'node:crypto';
import { canonicalJson, leafHash } from '../../libs/transparency/src';
import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * The records that change who may write or what is required (evidence-log README, kinds table): control
 * versions, environment policy versions, service account and API key events. Each is written through its
 * route, then its entry is found with `GET /log/{org}/lookup` once the sequencer integrated it, and
 * `record_sha256` is recomputed (RFC 8785) from the answer of the per-version route the table names.
 */
describe('evidence log: controls, policies and credentials', () => {
  let t: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    t = await startTestApp({ LOG_SEQUENCE_INTERVAL_MS: '50', LOG_CHECKPOINT_INTERVAL_MS: '100' });
    org = await createOrg(t, { features: ['controls'] });
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = <R extends { set: (k: string, v: string) => R }>(req: R) => req.set(...bearer(org.adminKey));
  const sha = (value: unknown) => createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');

  /** The entry of one record once integrated (its index is a number), its leaf parsed and checked. */
  async function integrated(kind: string, id: string): Promise<{ index: number; leaf: any }> {
    const found = await waitFor(
      async () => {
        const res = await as(t.http().get(`/api/v2/log/${org.name}/lookup`).query({ kind, id }));
        return res.status === 200 && typeof res.body.index === 'number' ? res.body : null;
      },
      { what: `${kind} ${id} integrated` },
    );
    expect(Buffer.from(found.leaf_hash, 'base64')).toEqual(leafHash(Buffer.from(found.leaf, 'utf8')));
    const leaf = JSON.parse(found.leaf);
    expect(leaf).toMatchObject({ v: 1, kind, org: org.name, id });
    expect(leaf.recorded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    return { index: found.index, leaf };
  }

  async function notLogged(kind: string, id: string): Promise<void> {
    await as(t.http().get(`/api/v2/log/${org.name}/lookup`).query({ kind, id })).expect(404);
  }

  it('logs every version of an environment policy over GET /policies/{org}/{name}/versions/{version}', async () => {
    const name = uniqueName('policy');
    const put = (yaml: string, comment: string) =>
      as(t.http().put(`/api/v2/policies/${org.name}`))
        .field('payload', JSON.stringify({ name, description: '', type: 'env', comment }))
        .attach('policy_file', Buffer.from(yaml), 'p.yaml');
    const v1 = '_schema: https://docs.kosli.com/schemas/policy/v1\nartifacts:\n  provenance:\n    required: true\n';
    const v2 = `${v1}  trail-compliance:\n    required: true\n`;
    await put(v1, 'first').expect(201);
    await put(v2, 'second').expect(200);
    await put(v2, 'same again').expect(200); // the same YAML: no version, no entry

    const policy = (await as(t.http().get(`/api/v2/policies/${org.name}/${name}`)).expect(200)).body;
    for (const version of [1, 2]) {
      const record = (await as(t.http().get(`/api/v2/policies/${org.name}/${name}/versions/${version}`)).expect(200)).body;
      expect(record).toEqual({ name, ...policy.versions[version - 1] });
      const { leaf } = await integrated('policy_version', `${name}@${version}`);
      expect(leaf.record_sha256).toBe(sha(record));
    }
    await notLogged('policy_version', `${name}@3`);
    await as(t.http().get(`/api/v2/policies/${org.name}/${name}/versions/3`)).expect(404);
    const bad = await as(t.http().get(`/api/v2/policies/${org.name}/${name}/versions/0x1`)).expect(400);
    expect(bad.body.errors).toEqual({ version: expect.any(String) });
  });

  it('logs a control created, edited, archived and unarchived over GET /controls/{org}/{identifier}/versions/{version}', async () => {
    const identifier = uniqueName('C');
    const base = `/api/v2/controls/${org.name}/${identifier}`;
    await as(t.http().post(`/api/v2/controls/${org.name}`)).send({ identifier, name: 'Tests pass', description: 'd' }).expect(201);
    await as(t.http().put(base)).send({ name: 'Tests pass', description: 'every test' }).expect(200);
    await as(t.http().put(base)).send({ name: 'Tests pass', description: 'every test' }).expect(200); // no change: no version
    await as(t.http().post(`${base}/archive`)).expect(200);
    await as(t.http().post(`${base}/archive`)).expect(200); // archived already: no version
    await as(t.http().post(`${base}/unarchive`)).expect(200);
    // Tags change the current record but are no version of it: the versions' answers stay the same.
    await as(t.http().patch(`/api/v2/tags/${org.name}/control/${identifier}`)).send({ set_tags: { team: 'a' } }).expect(200);

    const current = (await as(t.http().get(base)).expect(200)).body;
    expect(current.version).toBe(4);
    const changes: string[] = [];
    for (const version of [1, 2, 3, 4]) {
      const record = (await as(t.http().get(`${base}/versions/${version}`)).expect(200)).body;
      expect(record).toMatchObject({ identifier, version, changed_by: expect.any(String) });
      changes.push(record.change);
      const { leaf } = await integrated('control_version', `${identifier}@${version}`);
      expect(leaf.record_sha256).toBe(sha(record));
    }
    expect(changes).toEqual(['created', 'edited', 'archived', 'unarchived']);
    expect((await as(t.http().get(`${base}/versions/2`)).expect(200)).body).toMatchObject({ description: 'every test', archived: false });
    expect((await as(t.http().get(`${base}/versions/3`)).expect(200)).body).toMatchObject({ archived: true });
    await notLogged('control_version', `${identifier}@5`);
    await as(t.http().get(`${base}/versions/5`)).expect(404);
    await as(t.http().get(`${base}/versions/-1`)).expect(400);
  });

  it('logs service account and API key changes over GET /credential-events/{org}/{event_id}, never a key value', async () => {
    const account = uniqueName('bot');
    const sa = `/api/v2/service-accounts/${org.name}/${account}`;
    await as(t.http().post(`/api/v2/service-accounts/${org.name}`)).send({ name: account, description: 'ci', privilege: 'member' }).expect(201);
    await as(t.http().patch(sa)).send({ privilege: 'admin' }).expect(200);
    await as(t.http().patch(sa)).send({ privilege: 'admin' }).expect(200); // no change: no event
    const created = (await as(t.http().post(`${sa}/api-keys`)).send({ description: 'deploys' }).expect(201)).body;
    const rotated = (await as(t.http().post(`${sa}/api-keys/${created.id}/rotate`)).send({ grace_period_hours: 1 }).expect(201)).body;
    await as(t.http().delete(`${sa}/api-keys/${rotated.id}`)).expect(200);
    await as(t.http().delete(sa)).expect(200);

    // The event ids are in the log's entries; each is then found by lookup, integrated, over the event's route.
    const entries = await waitFor(
      async () => {
        const body = (await as(t.http().get(`/api/v2/log/${org.name}/entries?start=0&limit=1000`)).expect(200)).body;
        const mine: Array<{ leaf: any }> = [];
        for (const e of body.entries) {
          const leaf = JSON.parse(e.leaf);
          if (leaf.kind !== 'credential_event') continue;
          const record = (await as(t.http().get(`/api/v2/credential-events/${org.name}/${leaf.id}`)).expect(200)).body;
          if (record.service_account === account) mine.push({ leaf });
        }
        return mine.length === 6 ? mine : null;
      },
      { what: 'six credential events integrated' },
    );
    const records = [];
    for (const { leaf: listed } of entries) {
      const record = (await as(t.http().get(`/api/v2/credential-events/${org.name}/${listed.id}`)).expect(200)).body;
      const { leaf } = await integrated('credential_event', listed.id);
      expect(leaf.record_sha256).toBe(sha(record));
      records.push(record);
    }
    expect(records.map((r) => r.type)).toEqual([
      'service_account_created',
      'service_account_changed',
      'api_key_created',
      'api_key_rotated',
      'api_key_revoked',
      'service_account_deleted',
    ]);
    expect(records[0]).toMatchObject({ privilege: 'member', description: 'ci', key: null });
    expect(records[1]).toMatchObject({ privilege: 'admin' });
    expect(records[2].key).toEqual({ id: created.id, description: 'deploys', created_at: created.created_at, expires_at: 0 });
    expect(records[3]).toMatchObject({ key: { id: rotated.id }, replaced_key: { id: created.id, expires_at: rotated.grace_period_expires_at } });
    expect(records[4].key).toMatchObject({ id: rotated.id });
    // Public metadata only: neither key's value appears in any record or leaf.
    const text = JSON.stringify(records) + JSON.stringify(entries);
    for (const secret of [created.key, rotated.key]) expect(text).not.toContain(secret);
    await as(t.http().get(`/api/v2/credential-events/${org.name}/not-an-id`)).expect(404);
  });

  it("logs the keys the operator issues in an org (its first admin's, a member's) as credential events, never their value", async () => {
    const email = `${uniqueName('reader')}@example.com`;
    const memberKey = await addMember(t, org.name, 'reader', email);
    const events = await waitFor(
      async () => {
        const body = (await as(t.http().get(`/api/v2/log/${org.name}/entries?start=0&limit=1000`)).expect(200)).body;
        const found: Array<{ leaf: any; record: any }> = [];
        for (const e of body.entries) {
          const leaf = JSON.parse(e.leaf);
          if (leaf.kind !== 'credential_event') continue;
          const record = (await as(t.http().get(`/api/v2/credential-events/${org.name}/${leaf.id}`)).expect(200)).body;
          if (record.user === org.adminEmail || record.user === email) found.push({ leaf, record });
        }
        return found.length === 2 ? found : null;
      },
      { what: 'the two operator-issued keys logged' },
    );
    expect(events.map((e) => [e.record.type, e.record.user, e.record.actor, e.record.key.description])).toEqual([
      ['api_key_created', org.adminEmail, 'operator', `personal key for ${org.name}`],
      ['api_key_created', email, 'operator', `personal key for ${org.name}`],
    ]);
    for (const e of events) expect(e.leaf.record_sha256).toBe(sha(e.record));
    // The first admin's key is among the org's first entries: nothing could be written in the org before it.
    expect(events[0].leaf.recorded_at <= events[1].leaf.recorded_at).toBe(true);
    const text = JSON.stringify(events);
    for (const secret of [org.adminKey, memberKey]) expect(text).not.toContain(secret);
  });

  it('logs a personal key in every org its user belongs to, since it acts in each: keys issued, made, revoked, and those a user brings when joining', async () => {
    // Ann is admin of this org; the operator makes org Z and adds her there too.
    const email = `${uniqueName('ann')}@example.com`;
    const annKey = await addMember(t, org.name, 'admin', email);
    const other = await createOrg(t);
    const zKey = await addMember(t, other.name, 'admin', email);
    // The key issued for Z acts in this org too (her role here), so this org's log holds it.
    expect((await t.http().get(`/api/v2/organizations/${org.name}`).set(...bearer(zKey)).expect(200)).body.role).toBe('admin');
    // A key she makes through Z's route, and its revocation, are in this org's log as well.
    const made = (await t.http().post(`/api/v2/api-keys/${other.name}`).set(...bearer(zKey)).send({ description: 'laptop' }).expect(201)).body;
    await t.http().delete(`/api/v2/api-keys/${other.name}/${made.id}`).set(...bearer(zKey)).expect(200);

    const eventsIn = async (name: string, key: string, want: number) =>
      waitFor(
        async () => {
          const body = (await t.http().get(`/api/v2/log/${name}/entries?start=0&limit=1000`).set(...bearer(key)).expect(200)).body;
          const found: Array<[string, string]> = [];
          for (const e of body.entries) {
            const leaf = JSON.parse(e.leaf);
            if (leaf.kind !== 'credential_event') continue;
            const record = (await t.http().get(`/api/v2/credential-events/${name}/${leaf.id}`).set(...bearer(key)).expect(200)).body;
            if (record.user === email) found.push([record.type, record.key.description]);
          }
          return found.length >= want ? found : null;
        },
        { what: `${want} key events of ${email} in ${name}` },
      );
    const here = await eventsIn(org.name, org.adminKey, 4);
    expect(here).toEqual([
      ['api_key_created', `personal key for ${org.name}`],
      ['api_key_created', `personal key for ${other.name}`],
      ['api_key_created', 'laptop'],
      ['api_key_revoked', 'laptop'],
    ]);
    // In Z: the key she brought when she joined (it acts there from then on), then the same events.
    const there = await eventsIn(other.name, other.adminKey, 4);
    expect(there).toEqual([
      ['api_key_admitted', `personal key for ${org.name}`],
      ['api_key_created', `personal key for ${other.name}`],
      ['api_key_created', 'laptop'],
      ['api_key_revoked', 'laptop'],
    ]);
    expect(JSON.stringify([here, there])).not.toContain(annKey);
  });

  it('refuses to rewrite a kept control version or credential event (append-only triggers)', async () => {
    await expect(t.dataSource.query(`UPDATE control_versions SET name = 'rewritten'`)).rejects.toThrow(/append-only/);
    await expect(t.dataSource.query(`DELETE FROM control_versions`)).rejects.toThrow(/append-only/);
    await expect(t.dataSource.query(`UPDATE credential_events SET record = '{}'`)).rejects.toThrow(/append-only/);
  });
});
