import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { AllowListing } from '../domain/rule-evaluation';

export interface AllowlistRow extends AllowListing {
  environment_name: string;
}

/** Owns `allowlist_entries`: artifacts allowed in an environment (by fingerprint), with who, why and when. */
@Injectable()
export class AllowlistRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Adds an entry, or replaces the reason of the same (environment, fingerprint, name). */
  async put(
    manager: EntityManager,
    orgId: string,
    environmentId: string,
    entry: { fingerprint: string; artifactName: string; description: string; actor: string },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO allowlist_entries (org_id, environment_id, fingerprint, artifact_name, description, created_by) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (org_id, environment_id, fingerprint, artifact_name)
       DO UPDATE SET description = EXCLUDED.description, created_by = EXCLUDED.created_by, created_at = now()`,
      [orgId, environmentId, entry.fingerprint, entry.artifactName, entry.description, entry.actor],
    );
  }

  /** The environment's entries by fingerprint (the most recent when a fingerprint is listed under two names). */
  async forEnvironment(orgId: string, environmentId: string, manager: EntityManager = this.dataSource.manager): Promise<Map<string, AllowListing>> {
    const rows: AllowListing[] = await manager.query(
      `SELECT artifact_name, fingerprint, description, created_by AS user_name, EXTRACT(EPOCH FROM created_at)::float8 AS timestamp
       FROM allowlist_entries WHERE org_id = $1 AND environment_id = $2 ORDER BY created_at`,
      [orgId, environmentId],
    );
    return new Map(rows.map((r) => [r.fingerprint, r]));
  }

  /** The entries of the given fingerprints in many environments, in one query: environment id -> fingerprint -> entry. */
  async forFingerprints(orgId: string, environmentIds: readonly string[], fingerprints: readonly string[]): Promise<Map<string, Map<string, AllowListing>>> {
    const byEnvironment = new Map<string, Map<string, AllowListing>>();
    if (!environmentIds.length || !fingerprints.length) return byEnvironment;
    const rows: Array<AllowListing & { environment_id: string }> = await this.dataSource.query(
      `SELECT environment_id, artifact_name, fingerprint, description, created_by AS user_name, EXTRACT(EPOCH FROM created_at)::float8 AS timestamp
       FROM allowlist_entries WHERE org_id = $1 AND environment_id = ANY($2::uuid[]) AND fingerprint = ANY($3::text[]) ORDER BY created_at`,
      [orgId, environmentIds, fingerprints],
    );
    for (const { environment_id, ...entry } of rows) {
      const entries = byEnvironment.get(environment_id) ?? new Map<string, AllowListing>();
      entries.set(entry.fingerprint, entry);
      byEnvironment.set(environment_id, entries);
    }
    return byEnvironment;
  }

  /** Every entry of the org, with its environment's name (joins the environments table). */
  async list(orgId: string): Promise<AllowlistRow[]> {
    return this.dataSource.query(
      `SELECT a.artifact_name, a.fingerprint, e.name AS environment_name, a.description, a.created_by AS user_name,
         EXTRACT(EPOCH FROM a.created_at)::float8 AS timestamp
       FROM allowlist_entries a JOIN environments e ON e.org_id = a.org_id AND e.id = a.environment_id
       WHERE a.org_id = $1 ORDER BY e.name, a.created_at, a.fingerprint`,
      [orgId],
    );
  }
}
