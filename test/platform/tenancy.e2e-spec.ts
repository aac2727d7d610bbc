import { bearer, createOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/** An org's evidence is invisible from another org, even to a caller who knows its ids and names. */
describe('tenancy', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('ids and names of one org resolve to nothing in another', async () => {
    const a = await createOrg(t);
    const b = await createOrg(t);
    const posted = await t
      .http()
      .post(`/api/v2/attestations/${a.name}/shared-name/trail/t1/generic`)
      .set(...bearer(a.adminKey))
      .field('data_json', JSON.stringify({ attestation_name: 'secret', is_compliant: true }))
      .attach('attachment_file', Buffer.from('org A only'), 'a.txt');
    expect(posted.status).toBe(201);
    const [{ id }] = await t.dataSource.query(
      `SELECT a.id FROM attestations a JOIN organizations o ON o.id = a.org_id WHERE o.name = $1`,
      [a.name],
    );

    const asB = (path: string) => t.http().get(path).set(...bearer(b.adminKey));
    expect((await asB(`/api/v2/attestations/${b.name}?attestation_id=${id}`)).body.data).toEqual([]);
    expect((await asB(`/api/v2/attestations/${b.name}/shared-name/trail/t1/attestation/${id}/evidence`)).status).toBe(404);
    expect((await asB(`/api/v2/trails/${b.name}/shared-name/t1`)).status).toBe(404);
    expect((await asB(`/api/v2/attestations/${a.name}?attestation_id=${id}`)).status).toBe(403);

    const own = await t.http().get(`/api/v2/attestations/${a.name}/shared-name/trail/t1/attestation/${id}/evidence`).set(...bearer(a.adminKey))
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(own.status).toBe(200);
    expect(own.body.toString()).toBe('org A only');
  });
});
