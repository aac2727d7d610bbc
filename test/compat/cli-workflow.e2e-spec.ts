import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';

const FP = 'a'.repeat(64);
const pretty = (v: unknown) => JSON.stringify(v, null, 4);

/**
 * The open-source CLI's requests, as it sends them (pretty-printed JSON, `application/json; charset=utf-8` on every
 * request, multipart parts `data_json` + `template_file` / `attachment_file` as application/octet-stream), and
 * the fields it reads back with strict types.
 */
describe('open-source CLI workflow', () => {
  let t: TestApp;
  let org: TestOrg;
  const flow = uniqueName('cli-flow');
  const trail = 'build-42';
  const json = 'application/json; charset=utf-8';
  const auth = () => bearer(org.adminKey);

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
  });
  afterAll(() => t.close());

  it('create flow with a template file: 201, then 200 when run again', async () => {
    const template = 'version: 1\ntrail:\n  attestations:\n  - name: unit-tests\n    type: generic\n  artifacts:\n  - name: web\n    attestations:\n    - name: scan\n      type: generic\n';
    const send = () =>
      t
        .http()
        .put(`/api/v2/flows/${org.name}/template_file`)
        .set(...auth())
        .field('data_json', pretty({ name: flow, description: '', visibility: 'private' }))
        .attach('template_file', Buffer.from(template), { filename: 'kosli.yml', contentType: 'application/octet-stream' });
    expect((await send()).status).toBe(201);
    expect((await send()).status).toBe(200);
  });

  it('begin trail (multipart, optional fields left out): 201 begun', async () => {
    const res = await t
      .http()
      .put(`/api/v2/trails/${org.name}/${flow}`)
      .set(...auth())
      .field(
        'data_json',
        pretty({
          name: trail,
          git_commit_info: { sha1: 'f'.repeat(40), message: 'fix', author: 'Ann <ann@x>', timestamp: 1763700000, branch: 'main' },
          origin_url: 'https://ci.example/build/42',
        }),
      );
    expect(res.status).toBe(201);
    expect(typeof res.body).toBe('string');
  });

  it('attest artifact with the fields the CLI sends, including repo_info null and object-form external_urls', async () => {
    const res = await t
      .http()
      .post(`/api/v2/artifacts/${org.name}/${flow}`)
      .set(...auth())
      .set('Content-Type', json)
      .send(
        pretty({
          fingerprint: FP,
          filename: 'web:1.0',
          git_commit: 'f'.repeat(40),
          git_commit_info: { sha1: 'f'.repeat(40), message: 'fix', author: 'Ann', timestamp: 1763700000, branch: '' },
          repo_info: null,
          build_url: 'https://ci.example/build/42',
          commit_url: 'https://git.example/c/fff',
          repo_url: '',
          template_reference_name: 'web',
          trail_name: trail,
          external_urls: { sbom: { href: 'https://x.example/sbom', fingerprint: 'b'.repeat(64) } },
          annotations: { build_duration_seconds: '12', build_command: 'make' },
        }),
      );
    expect(res.status).toBe(201);
  });

  it('attest generic with user_data {}, a newer repo_info and an attachment', async () => {
    const res = await t
      .http()
      .post(`/api/v2/attestations/${org.name}/${flow}/trail/${trail}/generic`)
      .set(...auth())
      .field(
        'data_json',
        pretty({
          attestation_name: 'scan',
          target_artifacts: ['web'],
          user_data: {},
          is_compliant: true,
          repo_info: {
            id: '12345',
            name: 'acme/web',
            url: 'https://bitbucket.example/acme/web',
            provider: 'bitbucket_dc',
            namespace_path: ['acme', 'platform'],
            additional_info: { project_key: 'ACME' },
          },
        }),
      )
      .attach('attachment_file', Buffer.from('scan report'), { filename: 'report.txt', contentType: 'application/octet-stream' });
    expect(res.status).toBe(201);
    const trailLevel = await t
      .http()
      .post(`/api/v2/attestations/${org.name}/${flow}/trail/${trail}/generic`)
      .set(...auth())
      .field('data_json', pretty({ attestation_name: 'unit-tests', user_data: {}, is_compliant: true }));
    expect(trailLevel.status).toBe(201);
  });

  it('get trail: the fields the CLI reads have their strict types', async () => {
    const res = await t.http().get(`/api/v2/trails/${org.name}/${flow}/${trail}`).set(...auth()).set('Content-Type', json);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: trail, compliance_state: 'COMPLIANT', last_modified_at: expect.any(Number) });
    expect(res.body.compliance_status.status).toBe('COMPLIANT');
    expect(Array.isArray(res.body.compliance_status.attestations_statuses)).toBe(true);
    expect(res.body.compliance_status.artifacts_statuses.web.attestations_statuses).toEqual(
      expect.arrayContaining([expect.objectContaining({ attestation_name: 'scan', status: 'COMPLETE', is_compliant: true })]),
    );
    for (const event of res.body.events) {
      expect(typeof event.timestamp).toBe('number');
      expect(typeof event.type).toBe('string');
    }
  });

  it('list trails: {data, pagination: {page, page_count, total}}', async () => {
    const res = await t.http().get(`/api/v2/trails/${org.name}?per_page=20&page=1&flow=${flow}`).set(...auth());
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ page: 1, page_count: 1, total: 1 });
    expect(res.body.data[0]).toMatchObject({ name: trail, compliance_state: 'COMPLIANT' });
  });

  it('get attestation by slot (array) and by id org-wide (data[0]), as evaluate trails does', async () => {
    const slot = await t.http().get(`/api/v2/attestations/${org.name}/${flow}/trail/${trail}/unit-tests`).set(...auth());
    expect(slot.status).toBe(200);
    expect(slot.body[0]).toMatchObject({
      attestation_name: 'unit-tests',
      attestation_type: 'generic',
      is_compliant: true,
      created_at: expect.any(Number),
      html_url: expect.any(String),
    });
    const byId = await t.http().get(`/api/v2/attestations/${org.name}?attestation_id=${slot.body[0].attestation_id}`).set(...auth());
    expect(byId.status).toBe(200);
    expect(byId.body.data[0].attestation_id).toBe(slot.body[0].attestation_id);
  });

  it('the repo from repo_info is registered, with its id as a string', async () => {
    const res = await t.http().get(`/api/v2/repos/${org.name}/${encodeURIComponent('acme/web')}`).set(...auth());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: expect.any(String), name: 'acme/web', provider: 'bitbucket_dc' });
  });
});
