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

interface RepoRow {
  id: string;
  name: string;
  url: string | null;
  provider: string | null;
  description: string | null;
  namespace_path: string | null;
  additional_info: Record<string, unknown>;
}

/**
 * Registers or updates the org's repo described by a `repo_info`, keyed by the provider's repo id (the name
 * when no id is sent). Reads first and writes only when something changed, so the many attestations that
 * repeat the same `repo_info` never queue on the repo row's lock.
 */
@Injectable()
export class RepoRegistry {
  /** Returns the repo's id (a UUID minted by the service). */
  async register(manager: EntityManager, orgId: string, info: RepoInfoInput): Promise<string> {
    const externalId = info.id && String(info.id).length ? String(info.id) : info.name;
    const existing: RepoRow[] = await manager.query(
      `SELECT id, name, url, provider, description, namespace_path, additional_info
       FROM repos WHERE org_id = $1 AND external_id = $2`,
      [orgId, externalId],
    );
    const known = existing[0];
    // Optional fields the client did not send keep what the repo already has.
    const additional = info.additional_info && Object.keys(info.additional_info).length ? info.additional_info : null;
    const wanted = {
      name: info.name,
      url: info.url ?? known?.url ?? null,
      provider: info.provider ?? known?.provider ?? null,
      description: info.description ?? known?.description ?? null,
      namespace_path: info.namespace_path ?? known?.namespace_path ?? null,
      additional_info: additional ?? known?.additional_info ?? {},
    };
    if (known && sameRepo(known, wanted)) return known.id;
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
        wanted.name,
        wanted.url,
        wanted.provider,
        wanted.description,
        wanted.namespace_path,
        JSON.stringify(wanted.additional_info),
      ],
    );
    return rows[0].id;
  }
}

function sameRepo(row: RepoRow, wanted: Omit<RepoRow, 'id'>): boolean {
  return (
    row.name === wanted.name &&
    row.url === wanted.url &&
    row.provider === wanted.provider &&
    row.description === wanted.description &&
    row.namespace_path === wanted.namespace_path &&
    JSON.stringify(row.additional_info ?? {}) === JSON.stringify(wanted.additional_info)
  );
}
