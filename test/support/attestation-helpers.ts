import { TestApp } from './test-app';

export const FP = (c: string) => c.repeat(64).slice(0, 64);

export function genericPath(org: string, flow: string, trail: string): string {
  return `/api/v2/attestations/${org}/${flow}/trail/${trail}/generic`;
}

/** POST a generic attestation (multipart) with an optional attachment. */
export function postGeneric(
  t: TestApp,
  key: string,
  org: string,
  flow: string,
  trail: string,
  data: unknown,
  attachment?: { field?: string; content: Buffer; filename: string; contentType?: string },
) {
  const req = t
    .http()
    .post(genericPath(org, flow, trail))
    .set('Authorization', `Bearer ${key}`)
    .field('data_json', typeof data === 'string' ? data : JSON.stringify(data));
  if (attachment) {
    req.attach(attachment.field ?? 'attachment_file', attachment.content, {
      filename: attachment.filename,
      contentType: attachment.contentType ?? 'application/octet-stream',
    });
  }
  return req;
}

/** Reports an artifact into a trail through the artifacts route, as the CLI does. */
export async function reportArtifact(
  t: TestApp,
  key: string,
  orgName: string,
  flow: string,
  trail: string,
  fingerprint: string,
  templateReferenceName: string,
): Promise<void> {
  await t
    .http()
    .post(`/api/v2/artifacts/${orgName}/${flow}`)
    .set('Authorization', `Bearer ${key}`)
    .send({ fingerprint, filename: `${templateReferenceName}.bin`, trail_name: trail, template_reference_name: templateReferenceName })
    .expect(201);
}

export async function countRows(t: TestApp, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await t.dataSource.query(`SELECT count(*)::int AS n FROM (${sql}) x`, params);
  return row.n;
}
