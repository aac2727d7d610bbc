import { addMember, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { digest, envApi, pod } from '../support/env-helpers';

const W1 = digest('web-1');
const B1 = digest('bucket-1');

describe('logical environments', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function org() {
    const o = await createOrg(t);
    const api = envApi(t, o);
    await api.create({ name: 'k8s', type: 'K8S', description: '' }).expect(201);
    await api.create({ name: 'bucket', type: 'S3', description: '' }).expect(201);
    await api.create({ name: 'prod', type: 'logical', description: 'all of production' }).expect(201);
    return { o, api };
  }
  const members = async (o: TestOrg, logical: string) =>
    (await t.dataSource.query(
      `SELECT m.name FROM environment_members em JOIN environments l ON l.id = em.logical_id JOIN environments m ON m.id = em.member_id
       JOIN organizations g ON g.id = em.org_id WHERE g.name = $1 AND l.name = $2 ORDER BY m.name`,
      [o.name, logical],
    )).map((r: { name: string }) => r.name);

  it('PUT /environments/{org}/{env}/join: 200 "OK"; joining twice is a no-op', async () => {
    const { o, api } = await org();
    const joined = await api.join('prod', 'k8s');
    expect(joined.status).toBe(200);
    expect(joined.body).toBe('OK');
    await api.join('prod', 'k8s').expect(200);
    await api.join('prod', 'bucket').expect(200);
    expect(await members(o, 'prod')).toEqual(['bucket', 'k8s']);
    expect((await api.get('prod').expect(200)).body.included_environments).toEqual(['bucket', 'k8s']);
  });

  it('join errors: 400 naming the rule when the target is not logical or the member not physical; 404 for either missing; 400 for a bad body', async () => {
    const { o, api } = await org();
    await api.create({ name: 'other', type: 'logical', description: '' }).expect(201);
    const rule = 'Only physical environments can be added to logical environments';
    expect((await api.join('k8s', 'bucket').expect(400)).body).toEqual({ message: `${rule}: 'k8s' is not a logical environment`, errors: null });
    expect((await api.join('prod', 'other').expect(400)).body).toEqual({ message: `${rule}: 'other' is a logical environment`, errors: null });
    expect((await api.join('nope', 'k8s').expect(404)).body.message).toBe("Environment 'nope' not found");
    expect((await api.join('prod', 'nope').expect(404)).body.message).toBe("Environment 'nope' not found");
    expect((await api.join('prod', 5).expect(400)).body.errors).toHaveProperty('physical_env_name');
    expect((await api.join('prod', '-x').expect(400)).body.errors).toHaveProperty('physical_env_name');
    await t.http().put(`/api/v2/environments/${o.name}/prod/join`).set('Authorization', `Bearer ${o.adminKey}`).send({}).expect(400);
    expect(await members(o, 'prod')).toEqual([]);
    const snapshotter = envApi(t, o, await addMember(t, o.name, 'snapshotter'));
    await snapshotter.join('prod', 'k8s').expect(403);
  });

  it('created with included_environments, which a later PUT replaces; they must exist and be physical', async () => {
    const { o, api } = await org();
    await api.create({ name: 'both', type: 'logical', description: '', included_environments: ['k8s', 'bucket'] }).expect(201);
    expect(await members(o, 'both')).toEqual(['bucket', 'k8s']);
    await api.create({ name: 'both', type: 'logical', description: '', included_environments: ['bucket'] }).expect(200);
    expect(await members(o, 'both')).toEqual(['bucket']);
    await api.create({ name: 'both', type: 'logical', description: 'no list: members stay' }).expect(200);
    expect(await members(o, 'both')).toEqual(['bucket']);
    expect((await api.create({ name: 'both', type: 'logical', included_environments: ['k8s', 'ghost'] }).expect(404)).body.message).toBe(
      "Environment 'ghost' not found",
    );
    expect((await api.create({ name: 'both', type: 'logical', included_environments: ['prod'] }).expect(400)).body.message).toBe(
      "Only physical environments can be added to logical environments: 'prod' is a logical environment",
    );
    expect(await members(o, 'both')).toEqual(['bucket']);
  });

  it("its view is the union of its members' latest snapshots; its state is all of theirs; it takes no reports", async () => {
    const { o, api } = await org();
    await api.join('prod', 'k8s').expect(200);
    await api.join('prod', 'bucket').expect(200);
    expect((await api.get('prod').expect(200)).body).toMatchObject({ type: 'logical', state: null, last_reported_at: null });
    const empty = (await api.snapshot('prod', 'latest').expect(200)).body;
    expect(empty).toMatchObject({ index: 0, type: 'logical', compliant: true, artifacts: [], members: [] });

    await api.report('k8s', 'K8S', { artifacts: [pod('a', { web: W1 })] }).expect(201);
    await api.report('k8s', 'K8S', { artifacts: [pod('a', { web: W1 }), pod('b', { web: W1 })] }).expect(200);
    await api.report('bucket', 'S3', { artifacts: [{ digests: { 'my-bucket': B1 }, creationTimestamp: 1 }] }).expect(201);
    await api.report('k8s', 'K8S', { artifacts: [pod('a', { web: digest('web-2') })] }).expect(201);
    const view = (await api.snapshot('prod', '-1').expect(200)).body;
    expect(view).toMatchObject({ index: 0, environment: 'prod', type: 'logical', compliant: true, is_latest: true, artifact_compliance_count: { true: 0, false: 0, null: 2 } });
    expect(view.members.map((m: any) => [m.environment, m.index])).toEqual([
      ['bucket', 1],
      ['k8s', 2],
    ]);
    expect(view.artifacts.map((a: any) => [a.environment, a.name, a.fingerprint])).toEqual([
      ['bucket', 'my-bucket', B1],
      ['k8s', 'web', digest('web-2')],
    ]);
    const env = (await api.get('prod').expect(200)).body;
    expect(env).toMatchObject({ state: true, last_reported_at: expect.any(Number), included_environments: ['bucket', 'k8s'] });

    // At an instant, each member as it was then.
    const k8sFirst = (await api.snapshot('k8s', '1').expect(200)).body.timestamp as number;
    const past = (await api.snapshot('prod', `@{${k8sFirst.toFixed(6)}}`).expect(200)).body;
    expect(past.members.map((m: any) => [m.environment, m.index])).toEqual([['k8s', 1]]);
    expect(past.is_latest).toBe(false);

    for (const expression of ['1', '#1', '-2', '~1']) {
      expect((await api.snapshot('prod', expression).expect(400)).body.errors).toEqual({
        snapshot_expression: 'a logical environment has no numbered snapshots: use latest, -1, ~0 or @{...}',
      });
    }
    await api.report('prod', 'K8S', { artifacts: [] }).expect(400);
    // Members' snapshot events name the logical environments they belong to.
    const [created] = await t.dataSource.query(
      `SELECT e.subject FROM outbox_events e JOIN organizations g ON g.id = e.org_id
       WHERE g.name = $1 AND e.type = 'snapshot.created' ORDER BY e.id DESC LIMIT 1`,
      [o.name],
    );
    expect(created.subject).toEqual({ environment: 'k8s', environment_type: 'K8S', logical_environments: ['prod'] });
  });
});
