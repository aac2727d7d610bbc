import { createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { digest, envApi } from '../support/env-helpers';

describe('azure-apps environments (a type of the registry)', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
  });
  afterAll(() => t.close());

  const app = (name: string, digests: Record<string, string>) => ({ app_name: name, app_kind: 'app', digests_source: 'acr', digests, creationTimestamp: 1700000000 });

  it('takes the CLI report: 201 with a snapshot, 200 when nothing changed; the snapshot lists the apps', async () => {
    const env = envApi(t, org);
    await env.create({ name: 'azure-prod', type: 'azure-apps' }).expect(201);
    const report = { artifacts: [app('web-app', { 'acme/web:1': digest('web') }), app('fn-app', { 'acme/fn:1': '' })] };
    expect((await env.report('azure-prod', 'azure-apps', report).expect(201)).body).toBe("Snapshot 1 of environment 'azure-prod' created");
    await env.report('azure-prod', 'azure-apps', { type: 'azure-apps', ...report }).expect(200);
    const snapshot = (await env.snapshot('azure-prod', '1').expect(200)).body;
    const web = snapshot.artifacts.find((a: any) => a.name === 'acme/web:1');
    expect(web).toMatchObject({ fingerprint: digest('web'), instance_count: 1, azure_apps: [{ app_name: 'web-app', app_kind: 'app', digests_source: 'acr', creationTimestamp: 1700000000 }] });
    expect(snapshot.artifacts.find((a: any) => a.name === 'acme/fn:1')).toMatchObject({ fingerprint: '', has_provenance: false });
  });

  it('refuses what the reference refuses, naming the field', async () => {
    const env = envApi(t, org);
    await env.create({ name: 'azure-2', type: 'azure-apps' }).expect(201);
    const bad = await env.report('azure-2', 'azure-apps', { artifacts: [{ ...app('a', { x: 'nothex' }), digests_source: 'guess', extra: 1 }] }).expect(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['artifacts[0].digests.x', 'artifacts[0].digests_source', 'artifacts[0].extra']);
    await env.report('nope', 'azure-apps', { artifacts: [] }).expect(404);
    await env.create({ name: 'k8s-1', type: 'K8S' }).expect(201);
    expect((await env.report('k8s-1', 'azure-apps', { artifacts: [] }).expect(400)).body.message).toBe("Environment 'k8s-1' is of type K8S, not azure-apps");
  });
});
