import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { RepoKey } from '../domain/repo-key';

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
  /** The repo with this key: a provider's id is unique only within that provider (a NULL provider is a key too). */
  async findByKey(manager: EntityManager, orgId: string, key: RepoKey): Promise<RepoRow | null> {
    const rows: RepoRow[] = await manager.query(
      `SELECT id, name, url, provider, description, namespace_path, additional_info
       FROM repos WHERE org_id = $1 AND provider IS NOT DISTINCT FROM $2 AND external_id = $3`,
      [orgId, key.provider, key.externalId],
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

  /** Inserts, or updates the row with the same (org, provider, external id); returns its id. */
  async upsert(manager: EntityManager, orgId: string, key: RepoKey, repo: Omit<RepoRow, 'id' | 'provider'>): Promise<string> {
    const rows: Array<{ id: string }> = await manager.query(
      `INSERT INTO repos (id, org_id, external_id, name, url, provider, description, namespace_path, additional_info)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (org_id, provider, external_id) DO UPDATE SET
         name = EXCLUDED.name, url = EXCLUDED.url,
         description = EXCLUDED.description, namespace_path = EXCLUDED.namespace_path,
         additional_info = EXCLUDED.additional_info, updated_at = now()
       RETURNING id`,
      [
        randomUUID(),
        orgId,
        key.externalId,
        repo.name,
        repo.url,
        key.provider,
        repo.description,
        repo.namespace_path,
        JSON.stringify(repo.additional_info),
      ],
    );
    return rows[0].id;
  }
}
