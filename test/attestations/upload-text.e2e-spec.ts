import * as http from 'node:http';
import { genericPath } from '../support/attestation-helpers';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';

const B = 'XbOuNdArYx';

/** A multipart body written byte for byte (supertest would encode what it is given as UTF-8). */
function form(dataJson: Buffer | string, file?: { headers: Buffer | string; content: Buffer }): Buffer {
  const parts: Buffer[] = [Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="data_json"\r\n\r\n`), Buffer.from(dataJson), Buffer.from('\r\n')];
  if (file) parts.push(Buffer.from(`--${B}\r\n`), Buffer.from(file.headers), Buffer.from('\r\n\r\n'), file.content, Buffer.from('\r\n'));
  parts.push(Buffer.from(`--${B}--\r\n`));
  return Buffer.concat(parts);
}

/**
 * Text in a multipart attestation (data_json, the part's file name) is UTF-8 or refused with a 400 naming the
 * field: never stored with U+FFFD in place of what was sent, so the recorded evidence says what the client said.
 */
describe('multipart attestation text is UTF-8', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (flow: string, body: Buffer) =>
    new Promise<{ status: number; body: { message?: string; errors?: Record<string, string> } }>((resolve, reject) => {
      const req = http.request(`${t.baseUrl}${genericPath(org.name, flow, 't1')}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${org.adminKey}`, 'Content-Type': `multipart/form-data; boundary=${B}`, 'Content-Length': body.length },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') }));
      });
      req.on('error', reject);
      req.end(body);
    });
  const stored = async (flow: string) => (await t.http().get(`/api/v2/attestations/${org.name}/${flow}`).set(...bearer(org.adminKey)).expect(200)).body.data;
  const data = (extra: Buffer = Buffer.alloc(0)) =>
    Buffer.concat([Buffer.from('{"attestation_name":"e","is_compliant":true,"description":"caf'), extra, Buffer.from('"}')]);
  const file = (disposition: Buffer | string) => ({ headers: Buffer.concat([Buffer.from('Content-Disposition: form-data; name="attachment_file"; '), Buffer.from(disposition)]), content: Buffer.from('e') });

  it('refuses data_json and file names that are not UTF-8 (400 naming the field), and stores nothing', async () => {
    const flow = uniqueName('flow');
    const badJson = await post(flow, form(data(Buffer.from([0xe9]))));
    expect({ status: badJson.status, errors: badJson.body.errors }).toEqual({ status: 400, errors: { data_json: 'must be valid UTF-8 text' } });

    const badName = await post(flow, form(data(), file(Buffer.concat([Buffer.from('filename="r'), Buffer.from([0xe9]), Buffer.from('sum.txt"')]))));
    expect({ status: badName.status, errors: badName.body.errors }).toEqual({ status: 400, errors: { attachment_file: "the part's file name is not valid UTF-8" } });

    for (const ext of ["filename*=UTF-8''\u0151r\u00fclt.txt", "filename*=UTF-8''%ZZ.txt", "filename*=UTF-8''r%E9sum%E9.txt"]) {
      const res = await post(flow, form(data(), file(ext)));
      expect({ ext, status: res.status, errors: Object.keys(res.body.errors ?? {}) }).toEqual({ ext, status: 400, errors: ['attachment_file'] });
    }
    await t.http().get(`/api/v2/attestations/${org.name}/${flow}`).set(...bearer(org.adminKey)).expect(404);
  });

  it('keeps UTF-8 text exactly as sent, raw or RFC 8187 encoded', async () => {
    const flow = uniqueName('flow');
    expect((await post(flow, form(data(Buffer.from('é')), file('filename="résumé.txt"')))).status).toBe(201);
    expect((await post(flow, form(data(Buffer.from('é')), file("filename*=UTF-8''%C5%91r%C3%BClt.txt")))).status).toBe(201);
    const rows = await stored(flow);
    expect(rows.map((a: { description: string; evidence: { filename: string } }) => [a.description, a.evidence.filename]).sort()).toEqual([
      ['café', 'résumé.txt'],
      ['café', 'őrült.txt'],
    ]);
  });
});
