import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** Owns `evaluation_policies`: each org's policy bundles, stored once per digest. */
@Injectable()
export class EvaluationPolicyRepository {
  constructor(private readonly dataSource: DataSource) {}

  async ensure(manager: EntityManager, orgId: string, digest: string, files: Record<string, string>, fileDigests: Record<string, string>): Promise<void> {
    await manager.query(
      `INSERT INTO evaluation_policies (org_id, digest, files, file_digests) VALUES ($1, $2, $3, $4)
       ON CONFLICT (org_id, digest) DO NOTHING`,
      [orgId, digest, JSON.stringify(files), JSON.stringify(fileDigests)],
    );
  }

  async fileDigests(orgId: string, digest: string): Promise<Record<string, string> | null> {
    const rows: Array<{ file_digests: Record<string, string> }> = await this.dataSource.query(
      `SELECT file_digests FROM evaluation_policies WHERE org_id = $1 AND digest = $2`,
      [orgId, digest],
    );
    return rows[0]?.file_digests ?? null;
  }

  async files(orgId: string, digest: string): Promise<Record<string, string> | null> {
    const rows: Array<{ files: Record<string, string> }> = await this.dataSource.query(
      `SELECT files FROM evaluation_policies WHERE org_id = $1 AND digest = $2`,
      [orgId, digest],
    );
    return rows[0]?.files ?? null;
  }

  async bundle(orgId: string, digest: string): Promise<{ files: Record<string, string>; fileDigests: Record<string, string> } | null> {
    const rows: Array<{ files: Record<string, string>; file_digests: Record<string, string> }> = await this.dataSource.query(
      `SELECT files, file_digests FROM evaluation_policies WHERE org_id = $1 AND digest = $2`,
      [orgId, digest],
    );
    return rows[0] ? { files: rows[0].files, fileDigests: rows[0].file_digests } : null;
  }
}
