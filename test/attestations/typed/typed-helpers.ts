import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bearer } from '../../support/factories';
import { TestApp } from '../../support/test-app';

export const fixture = (name: string) => readFileSync(join(__dirname, '../fixtures', name));

/** POST an attestation of a typed route (junit, snyk, sonar, jira, pull_request) as the CLI does: multipart. */
export function postTyped(
  t: TestApp,
  key: string,
  org: string,
  flow: string,
  trail: string,
  type: string,
  data: unknown,
  attachment?: { content: Buffer; filename: string },
) {
  const req = t
    .http()
    .post(`/api/v2/attestations/${org}/${flow}/trail/${trail}/${type}`)
    .set(...bearer(key))
    .field('data_json', typeof data === 'string' ? data : JSON.stringify(data));
  if (attachment) req.attach('attachment_file', attachment.content, { filename: attachment.filename, contentType: 'application/octet-stream' });
  return req;
}

/** The newest version of a trail slot as GET .../trail/{trail}/{slot} shows it. */
export async function readSlot(t: TestApp, key: string, org: string, flow: string, trail: string, slot: string) {
  const res = await t.http().get(`/api/v2/attestations/${org}/${flow}/trail/${trail}/${slot}`).set(...bearer(key));
  if (res.status !== 200) throw new Error(`GET slot ${slot}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body[0];
}
