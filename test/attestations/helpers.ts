import { randomUUID } from 'node:crypto';
import { TestApp } from '../support/test-app';

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

/** Reports an artifact straight into the tables (the artifacts route belongs to another module's tests). */
export async function insertArtifact(
  t: TestApp,
  orgName: string,
  flow: string,
  trail: string,
  fingerprint: string,
  templateReferenceName: string,
): Promise<void> {
  await t.dataSource.transaction(async (m) => {
    const [org] = await m.query(`SELECT id FROM organizations WHERE name = $1`, [orgName]);
    const [row] = await m.query(
      `SELECT t.id AS trail_id, t.flow_id FROM trails t JOIN flows f ON f.id = t.flow_id
       WHERE f.org_id = $1 AND f.name = $2 AND t.name = $3 FOR UPDATE OF t`,
      [org.id, flow, trail],
    );
    const [moment] = await m.query(
      `WITH u AS (UPDATE trails SET last_moment = last_moment + 1 WHERE id = $1 RETURNING last_moment) SELECT * FROM u`,
      [row.trail_id],
    );
    await m.query(
      `INSERT INTO trail_moments (trail_id, moment_number, created_at, kind) VALUES ($1, $2, now(), 'artifact')`,
      [row.trail_id, moment.last_moment],
    );
    await m.query(
      `INSERT INTO artifacts (id, org_id, flow_id, trail_id, moment_number, fingerprint, filename, template_reference_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [randomUUID(), org.id, row.flow_id, row.trail_id, moment.last_moment, fingerprint, `${templateReferenceName}.bin`, templateReferenceName],
    );
  });
}

export async function countRows(t: TestApp, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await t.dataSource.query(`SELECT count(*)::int AS n FROM (${sql}) x`, params);
  return row.n;
}
