import type { Test } from 'supertest';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const policy = (...controls: string[]) =>
  '_schema: https://docs.kosli.com/schemas/policy/v1\nartifacts:\n  provenance:\n    required: true\n' +
  (controls.length ? `  attestations:\n${controls.map((c) => `    - type: decision\n      for_control: ${c}\n`).join('')}` : '');

/** `GET /controls/{org}/{identifier}/coverage`: which environments enforce a control through their policies. */
describe('control coverage', () => {
  let t: TestApp;
  let org: TestOrg;
  const as = (req: Test) => req.set(...bearer(org.adminKey));
  const putPolicy = (name: string, yaml: string) =>
    as(t.http().put(`/api/v2/policies/${org.name}`)).field('payload', JSON.stringify({ name, description: '', type: 'env', comment: '' })).attach('policy_file', Buffer.from(yaml), 'p.yaml');
  const attach = (env: string, names: string[]) => as(t.http().post(`/api/v2/environments/${org.name}/${env}/policies`)).send({ policy_names: names });
  const detach = (env: string, names: string[]) => as(t.http().delete(`/api/v2/environments/${org.name}/${env}/policies`)).send({ policy_names: names });
  const coverage = (identifier: string, query: Record<string, string> = {}) => as(t.http().get(`/api/v2/controls/${org.name}/${identifier}/coverage`)).query(query);
  const rows = (body: any) => body.environments.map((e: any) => [e.environment_name, e.covered, e.policies]);

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t, { features: ['controls'] });
    for (const identifier of ['RCTL-1', 'RCTL-2']) {
      await as(t.http().post(`/api/v2/controls/${org.name}`)).send({ identifier, name: `Control ${identifier}` }).expect(201);
    }
    await putPolicy('needs-1', policy('RCTL-1')).expect(201);
    await putPolicy('provenance-only', policy()).expect(201);
    await putPolicy('needs-both', policy('RCTL-2', 'RCTL-1')).expect(201);
    for (const name of ['prod', 'stage', 'dev', 'qa', 'retired']) {
      await as(t.http().put(`/api/v2/environments/${org.name}`)).send({ name, type: 'K8S' }).expect(201);
    }
    // A logical environment takes no policies: it is neither listed nor counted.
    await as(t.http().put(`/api/v2/environments/${org.name}`)).send({ name: 'everything', type: 'logical' }).expect(201);
    await attach('prod', ['needs-1']).expect(200);
    await attach('stage', ['provenance-only']).expect(200);
    await attach('qa', ['needs-both', 'provenance-only']).expect(200);
    await attach('retired', ['needs-1']).expect(200);
    await as(t.http().put(`/api/v2/environments/${org.name}/retired/archive`)).expect(200);
  });
  afterAll(() => t.close());

  it('counts every environment not archived nor logical, and lists each with the policies that cover it', async () => {
    const res = await coverage('RCTL-1').expect(200);
    expect(res.body).toMatchObject({ control: 'RCTL-1', total: 4, covered: 2, coverage_percent: 50, page: 1, per_page: 20, total_pages: 1, total_count: 4 });
    expect(rows(res.body)).toEqual([
      ['dev', false, []],
      ['prod', true, ['needs-1']],
      ['qa', true, ['needs-both']],
      ['stage', false, []],
    ]);
    expect(res.body.environments[0].environment_type).toBe('K8S');
    const two = await coverage('RCTL-2').expect(200);
    expect(two.body).toMatchObject({ total: 4, covered: 1, coverage_percent: 25 });
  });

  it('filters by coverage and by name, and pages, while the summary stays the whole', async () => {
    expect(rows((await coverage('RCTL-1', { covered: 'true' }).expect(200)).body)).toEqual([
      ['prod', true, ['needs-1']],
      ['qa', true, ['needs-both']],
    ]);
    const uncovered = (await coverage('RCTL-1', { covered: 'false' }).expect(200)).body;
    expect(uncovered).toMatchObject({ total: 4, covered: 2, total_count: 2 });
    expect(rows(uncovered).map((r: any) => r[0])).toEqual(['dev', 'stage']);
    expect(rows((await coverage('RCTL-1', { search: 'PRO' }).expect(200)).body)).toEqual([['prod', true, ['needs-1']]]);
    const second = (await coverage('RCTL-1', { per_page: '1', page: '2' }).expect(200)).body;
    expect(second).toMatchObject({ page: 2, per_page: 1, total_pages: 4, total_count: 4 });
    expect(rows(second)).toEqual([['prod', true, ['needs-1']]]);
    expect((await coverage('RCTL-1', { page: '9' }).expect(200)).body.environments).toEqual([]);
  });

  it('follows the latest policy version and what is attached now', async () => {
    // A new version of needs-1 without the control: prod is no longer covered by it.
    await putPolicy('needs-1', policy()).expect(200);
    await detach('qa', ['needs-both']).expect(200);
    const res = await coverage('RCTL-1').expect(200);
    expect(res.body).toMatchObject({ total: 4, covered: 0, coverage_percent: 0 });
    await attach('dev', ['needs-both']).expect(200);
    expect(rows((await coverage('RCTL-1', { covered: 'true' }).expect(200)).body)).toEqual([['dev', true, ['needs-both']]]);
  });

  it('answers 404 for an unknown control, 400 for bad filters, 403 without the beta feature', async () => {
    expect((await coverage('RCTL-404').expect(404)).body.message).toBe("Control 'RCTL-404' not found");
    expect((await coverage('RCTL-1', { covered: 'maybe' }).expect(400)).body.errors).toHaveProperty(['query.covered']);
    expect((await coverage('RCTL-1', { per_page: '0' }).expect(400)).body.errors).toHaveProperty(['query.per_page']);
    const plain = await createOrg(t);
    await t.http().get(`/api/v2/controls/${plain.name}/RCTL-1/coverage`).set(...bearer(plain.adminKey)).expect(403);
  });
});
