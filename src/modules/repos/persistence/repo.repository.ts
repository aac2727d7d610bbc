import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';

/** What a client sends as `repo_info` (trails, artifacts, attestations). */
export interface RepoInfoInput {
  id?: string | null;
  name: string;
  url?: string | null;
  provider?: string | null;
  description?: string | null;
  namespace_path?: string | null;
  additional_info?: Record<string, unknown> | null;
}

export interface RepoRow {
  id: string;
  name: string;
  url: string | null;
  provider: string | null;
  description: string | null;
  namespace_path: string | null;
  additional_info: Record<string, unknown>;
}

/** Owns the `repos` table. */
@Injectable()
export class RepoRepository {
  async findByExternalId(manager: EntityManager, orgId: string, externalId: string): Promise<RepoRow | null> {
    const rows: RepoRow[] = await manager.query(
      `SELECT id, name, url, provider, description, namespace_path, additional_info
       FROM repos WHERE org_id = $1 AND external_id = $2`,
      [orgId, externalId],
    );
    return rows[0] ?? null;
  }

  /** Takes the repo row with this id (the service's) and returns its tags. */
  async lockTags(manager: EntityManager, orgId: string, id: string): Promise<{ id: string; tags: Record<string, string> } | null> {
    const rows: Array<{ id: string; tags: Record<string, string> }> = await manager.query(
      `SELECT id, tags FROM repos WHERE org_id = $1 AND id = $2 FOR NO KEY UPDATE`,
      [orgId, id],
    );
    return rows[0] ?? null;
  }

  async setTags(manager: EntityManager, id: string, tags: Record<string, string>): Promise<void> {
    await manager.query(`UPDATE repos SET tags = $2 WHERE id = $1`, [id, JSON.stringify(tags)]);
  }

  /** Inserts, or updates the row with the same (org, external id); returns its id. */
  async upsert(manager: EntityManager, orgId: string, externalId: string, repo: Omit<RepoRow, 'id'>): Promise<string> {
    const rows: Array<{ id: string }> = await manager.query(
      `INSERT INTO repos (id, org_id, external_id, name, url, provider, description, namespace_path, additional_info)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (org_id, external_id) DO UPDATE SET
         name = EXCLUDED.name, url = EXCLUDED.url, provider = EXCLUDED.provider,
         description = EXCLUDED.description, namespace_path = EXCLUDED.namespace_path,
         additional_info = EXCLUDED.additional_info, updated_at = now()
       RETURNING id`,
      [
        randomUUID(),
        orgId,
        externalId,
        repo.name,
        repo.url,
        repo.provider,
        repo.description,
        repo.namespace_path,
        JSON.stringify(repo.additional_info),
      ],
    );
    return rows[0].id;
  }
}
