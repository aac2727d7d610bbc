import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RepoKey } from '../domain/repo-key';

/** One artifact of a repo running in one environment now. Times are Unix seconds. */
export interface LiveArtifactRow {
  environment_id: string;
  environment_name: string;
  environment_type: string;
  last_snapshot: number;
  artifact_id: string;
  artifact_name: string;
  fingerprint: string;
  git_commit: string | null;
  commit_url: string | null;
  compliant: boolean;
  started_at: number;
}

/**
 * Read model: what a repo's artifacts (reports whose `repo_info` registered this repo: the same provider and
 * provider's id, or name when no id was sent; see `repoKeyOf`) run now, per environment (joins the artifacts'
 * and the environments' tables, as read models may). Archived environments are left out.
 */
@Injectable()
export class LiveArtifactsReader {
  constructor(private readonly dataSource: DataSource) {}

  async live(orgId: string, repo: RepoKey): Promise<LiveArtifactRow[]> {
    const rows: LiveArtifactRow[] = await this.dataSource.query(
      `WITH reported AS (
         SELECT DISTINCT ON (a.fingerprint) a.id, a.fingerprint, a.git_commit, a.commit_url FROM artifacts a
         WHERE a.org_id = $1 AND COALESCE(NULLIF(a.repo_info->>'id', ''), a.repo_info->>'name') = $2
           AND NULLIF(a.repo_info->>'provider', '') IS NOT DISTINCT FROM $3
         ORDER BY a.fingerprint, a.created_at DESC)
       SELECT e.id AS environment_id, e.name AS environment_name, e.type AS environment_type, e.last_snapshot,
         rp.id AS artifact_id, r.name AS artifact_name, rp.fingerprint, rp.git_commit, rp.commit_url, r.compliant,
         EXTRACT(EPOCH FROM s.created_at)::float8 AS started_at
       FROM reported rp
       JOIN environment_artifact_runs r ON r.org_id = $1 AND r.fingerprint = rp.fingerprint AND r.ended_snapshot IS NULL
       JOIN environments e ON e.id = r.environment_id AND e.org_id = $1 AND e.archived_at IS NULL
       JOIN environment_snapshots s ON s.org_id = $1 AND s.environment_id = r.environment_id AND s.number = r.first_snapshot
       ORDER BY e.name, r.name`,
      [orgId, repo.externalId, repo.provider],
    );
    return rows.map((r) => ({ ...r, started_at: Number(r.started_at) }));
  }
}
