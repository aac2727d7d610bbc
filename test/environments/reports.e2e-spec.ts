import { addMember, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { digest, envApi, pod } from '../support/env-helpers';
import { QueryRunner } from 'typeorm';
import { waitFor } from '../support/wait';
import { sessionsWaitingOn } from '../support/locks';

const W1 = digest('web-1');
const W2 = digest('web-2');
const D1 = digest('db-1');

describe('environment reports (PUT /environments/{org}/{env}/report/{type})', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function env(type: string, extra: Record<string, unknown> = {}) {
    const org = await createOrg(t);
    const api = envApi(t, org);
    await api.create({ name: 'prod', type, description: '', ...extra }).expect(201);
    return { org, api };
  }
  /** What the database holds for an org's environments: snapshots, runs, outbox events. */
  const stored = async (org: TestOrg) => {
    const [row] = await t.dataSource.query(
      `SELECT (SELECT count(*)::int FROM environment_snapshots s WHERE s.org_id = o.id) AS snapshots,
              (SELECT count(*)::int FROM environment_artifact_runs r WHERE r.org_id = o.id) AS runs,
              (SELECT count(*)::int FROM outbox_events e WHERE e.org_id = o.id) AS events
       FROM organizations o WHERE o.name = $1`,
      [org.name],
    );
    return row as { snapshots: number; runs: number; events: number };
  };

  it('takes each type in the shape the CLI sends it: 201 with a string body for a new snapshot, 200 when unchanged', async () => {
    const bodies: Record<string, unknown> = {
      K8S: {
        artifacts: [
          { podName: 'web-1', namespace: 'default', digests: { 'acme/web:1': W1 }, creationTimestamp: 1700000000, owners: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-rs', uid: 'u1', controller: true }] },
          { podName: 'job-1', namespace: 'batch', digests: {}, creationTimestamp: 1700000001, owners: null },
        ],
      },
      ECS: {
        artifacts: [
          { taskArn: 'arn:aws:ecs:eu-central-1:1:task/c/1', cluster_name: 'c', service_name: 's', digests: { 'acme/web:1': W1, sidecar: '' }, creationTimestamp: 1700000000 },
          { taskArn: 'arn:aws:ecs:eu-central-1:1:task/c/2', digests: {}, creationTimestamp: 1700000001 },
        ],
      },
      S3: { artifacts: [{ digests: { 'my-bucket': W1 }, creationTimestamp: 1700000000 }] },
      docker: { artifacts: [{ digests: { 'acme/web:1': W1 }, creationTimestamp: 1700000000 }] },
      server: { artifacts: [{ digests: { '/opt/app/web.jar': W1 }, creationTimestamp: 1700000000 }] },
      lambda: { type: 'lambda', artifacts: [{ digests: { 'my-function': W1 }, creationTimestamp: 1700000000 }] },
    };
    for (const [type, body] of Object.entries(bodies)) {
      const { api } = await env(type);
      const first = await api.report('prod', type, body);
      expect({ type, status: first.status, body: first.body }).toEqual({ type, status: 201, body: "Snapshot 1 of environment 'prod' created" });
      expect(first.headers['content-type']).toMatch(/^application\/json/);
      const again = await api.report('prod', type, body);
      expect({ type, status: again.status }).toEqual({ type, status: 200 });
      expect(again.body).toBe("Report processed: nothing changed, environment 'prod' stays at snapshot 1");
      const snap = (await api.snapshot('prod', 'latest').expect(200)).body;
      expect(snap).toMatchObject({ index: 1, type, is_latest: true });
    }
  });

  const environmentId = async (org: TestOrg): Promise<string> =>
    (await t.dataSource.query(`SELECT e.id FROM environments e JOIN organizations o ON o.id = e.org_id WHERE o.name = $1 AND e.name = 'prod'`, [org.name]))[0].id;

  /**
   * Sends `request` while another transaction holds the environment's row, runs `meanwhile` in that transaction
   * once the request waits for it (PostgreSQL says who blocks whom: nothing is timed), commits, and answers.
   */
  async function racing<T>(id: string, request: () => Promise<T>, meanwhile: (other: QueryRunner) => Promise<unknown>): Promise<T> {
    const other = t.dataSource.createQueryRunner();
    await other.connect();
    await other.startTransaction();
    try {
      const [{ pid }] = await other.query(`SELECT pg_backend_pid() AS pid`);
      await other.query(`SELECT id FROM environments WHERE id = $1 FOR UPDATE`, [id]);
      const answer = request();
      await waitFor(async () => (await sessionsWaitingOn(t.dataSource, pid)) > 0, { what: 'the report waiting for the environment' });
      await meanwhile(other);
      await other.commitTransaction();
      return await answer;
    } finally {
      if (other.isTransactionActive) await other.rollbackTransaction();
      await other.release();
    }
  }

  it('a report that meets a rename of its environment between reading it and locking it is a 404 and writes nothing', async () => {
    const { org, api } = await env('K8S');
    const id = await environmentId(org);
    const res = await racing(
      id,
      () => api.report('prod', 'K8S', { artifacts: [pod('p', { web: W1 })] }).then((r) => r),
      (other) => other.query(`UPDATE environments SET name = 'prod-2' WHERE id = $1`, [id]),
    );
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Environment 'prod' not found", errors: null });
    expect((await stored(org)).snapshots).toBe(0);
  });

  it('a report is judged by the settings in force when it locks its environment, not those it read before', async () => {
    const { org, api } = await env('K8S', { require_provenance: false });
    const id = await environmentId(org);
    // An image no trail reported: compliant without the provenance requirement, not with it.
    const res = await racing(
      id,
      () => api.report('prod', 'K8S', { artifacts: [pod('p', { web: W2 })] }).then((r) => r),
      (other) => other.query(`UPDATE environments SET require_provenance = true WHERE id = $1`, [id]),
    );
    expect(res.status).toBe(201);
    const [snapshot] = await t.dataSource.query(`SELECT compliant FROM environment_snapshots WHERE environment_id = $1`, [id]);
    expect(snapshot.compliant).toBe(false);
  });

  it('order never matters: reordered pods and digests, renamed pods with the same images and counts, are unchanged', async () => {
    const { api } = await env('K8S');
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1, db: D1 }), pod('b', { web: W1 })] }).expect(201);
    await api.report('prod', 'K8S', { artifacts: [pod('b', { web: W1 }), pod('a', { db: D1, web: W1 })] }).expect(200);
    await api.report('prod', 'K8S', { artifacts: [pod('x', { web: W1 }), pod('y', { db: D1, web: W1 }, { creationTimestamp: 1800000000 })] }).expect(200);
    // The same image under another name is another artifact.
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1, 'db-renamed': D1 }), pod('b', { web: W1 })] }).expect(201);
    // A new digest for a name is a change.
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W2, 'db-renamed': D1 }), pod('b', { web: W1 })] }).expect(201);
    expect((await api.get('prod').expect(200)).body.last_snapshot).toBe(3);
  });

  it('a change of instance count alone makes a snapshot only for an environment with include_scaling', async () => {
    const two = { artifacts: [pod('a', { web: W1 }), pod('b', { web: W1 })] };
    const three = { artifacts: [pod('a', { web: W1 }), pod('b', { web: W1 }), pod('c', { web: W1 })] };
    const plain = await env('K8S');
    await plain.api.report('prod', 'K8S', two).expect(201);
    await plain.api.report('prod', 'K8S', three).expect(200);
    const scaling = await env('K8S', { include_scaling: true });
    await scaling.api.report('prod', 'K8S', two).expect(201);
    await scaling.api.report('prod', 'K8S', three).expect(201);
    await scaling.api.report('prod', 'K8S', { artifacts: [...three.artifacts].reverse() }).expect(200);
    const snap = (await scaling.api.snapshot('prod', '2').expect(200)).body;
    expect(snap.artifacts).toEqual([expect.objectContaining({ name: 'web', instance_count: 3, annotation: { type: 'scaled', was: 2, now: 3 } })]);
    // Turning scaling on later compares counts from then on.
    await plain.api.create({ name: 'prod', type: 'K8S', include_scaling: true }).expect(200);
    await plain.api.report('prod', 'K8S', three).expect(201);
  });

  it('field-level 400s keyed by path, before anything else; nothing is written', async () => {
    const { org, api } = await env('K8S');
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1 })] }).expect(201);
    const before = await stored(org);
    const cases: Array<[unknown, Record<string, string>]> = [
      [
        { artifacts: [pod('a', { web: W1 }), pod('b', { web: W1 }), pod('c', { web: 'not-a-digest', ok: W1, db: W1.toUpperCase() })] },
        { 'artifacts[2].digests.web': 'must be 64 lowercase hex characters', 'artifacts[2].digests.db': 'must be 64 lowercase hex characters' },
      ],
      [{ artifacts: [pod('a', { web: '' })] }, { 'artifacts[0].digests.web': 'must be 64 lowercase hex characters' }],
      [{ artifacts: [pod('a', { '': W1 })] }, { 'artifacts[0].digests': 'an artifact name must not be empty' }],
      [{ artifacts: [{ ...pod('a', {}), digests: [W1] }] }, { 'artifacts[0].digests': 'must be an object mapping an artifact name to its digest' }],
      [{ artifacts: [{ ...pod('a', { web: W1 }), extra: 1 }] }, { 'artifacts[0].extra': expect.stringContaining('unknown field') }],
      [{ artifacts: [{ ...pod('a', { web: W1 }), creationTimestamp: 'yesterday' }] }, { 'artifacts[0].creationTimestamp': expect.any(String) }],
      [{ artifacts: [{ digests: { web: W1 }, creationTimestamp: 1 }] }, { 'artifacts[0].podName': 'is required', 'artifacts[0].namespace': 'is required' }],
      [{}, { artifacts: 'is required' }],
      [{ artifacts: 'pods' }, { artifacts: expect.any(String) }],
      [{ type: 'ECS', artifacts: [] }, { type: expect.stringContaining('K8S') }],
      [{ artifacts: [], snapshot: 2 }, { snapshot: expect.stringContaining('unknown field') }],
    ];
    for (const [body, errors] of cases) {
      const res = await api.report('prod', 'K8S', body);
      expect({ body, status: res.status, message: res.body.message, errors: res.body.errors }).toEqual({ body, status: 400, message: 'Input payload validation failed', errors });
    }
    // Validation comes before the environment lookup.
    await api.report('nope', 'K8S', { artifacts: [pod('a', { web: 'x' })] }).expect(400);
    expect(await stored(org)).toEqual(before);
  });

  it('an unknown ECS digest is "" (and only for ECS)', async () => {
    const { api } = await env('ECS');
    const task = { taskArn: 'arn:t/1', digests: { 'aws-guardduty-agent': '' }, creationTimestamp: 1700000000 };
    await api.report('prod', 'ECS', { artifacts: [task] }).expect(201);
    const snap = (await api.snapshot('prod', '1').expect(200)).body;
    expect(snap.artifacts[0]).toMatchObject({
      name: 'aws-guardduty-agent',
      fingerprint: '',
      has_provenance: false,
      ecs_context: { task_arn: 'arn:t/1', cluster_name: null, service_name: null },
    });
    const docker = await env('docker');
    const res = await docker.api.report('prod', 'docker', { artifacts: [{ digests: { web: '' }, creationTimestamp: 1 }] }).expect(400);
    expect(res.body.errors).toEqual({ 'artifacts[0].digests.web': 'must be 64 lowercase hex characters' });
  });

  it('404 for an unknown environment; 400 for a report of another type or to a logical environment', async () => {
    const { org, api } = await env('K8S');
    await api.create({ name: 'everything', type: 'logical', description: '' }).expect(201);
    expect((await api.report('nope', 'K8S', { artifacts: [] }).expect(404)).body).toEqual({ message: "Environment 'nope' not found", errors: null });
    expect((await api.report('prod', 'ECS', { artifacts: [] }).expect(400)).body.message).toBe("Environment 'prod' is of type K8S, not ECS");
    expect((await api.report('everything', 'K8S', { artifacts: [] }).expect(400)).body.message).toBe(
      "Environment 'everything' is a logical environment: logical environments take no reports",
    );
    // The path segment is the type, case-sensitive: there is no such route.
    await api.report('prod', 'k8s', { artifacts: [] }).expect(404);
    expect(await stored(org)).toEqual({ snapshots: 0, runs: 0, events: 0 });
  });

  it('roles: a snapshotter may report, a reader may not', async () => {
    const { org } = await env('S3');
    const body = { artifacts: [{ digests: { bucket: W1 }, creationTimestamp: 1 }] };
    await envApi(t, org, await addMember(t, org.name, 'reader')).report('prod', 'S3', body).expect(403);
    await envApi(t, org, await addMember(t, org.name, 'snapshotter')).report('prod', 'S3', body).expect(201);
  });

  it('concurrent reports of the same change make one snapshot; of different changes, one each', async () => {
    const { api } = await env('K8S');
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1 })] }).expect(201);
    const same = await Promise.all(Array.from({ length: 6 }, () => api.report('prod', 'K8S', { artifacts: [pod('a', { web: W2 })] })));
    expect(same.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const different = await Promise.all([1, 2, 3, 4].map((i) => api.report('prod', 'K8S', { artifacts: [pod('a', { web: digest(`v${i}`) })] })));
    expect(different.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const list = (await api.snapshots('prod', { reverse: 'true' }).expect(200)).body;
    expect(list.map((s: any) => s.index)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
