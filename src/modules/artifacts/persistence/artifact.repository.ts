import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** One artifact report, as stored (JSON columns already serialised). */
export interface ArtifactReportRow {
  id: string;
  orgId: string;
  flowId: string;
  trailId: string;
  momentNumber: number;
  fingerprint: string;
  filename: string;
  templateReferenceName: string;
  gitCommit: string | null;
  gitCommitInfo: string | null;
  buildUrl: string | null;
  commitUrl: string | null;
  repoUrl: string | null;
  repoInfo: string | null;
  externalUrls: string;
  annotations: string;
  reportedBy: string;
  description: string;
  userData: string | null;
  commitsList: string | null;
  isCompliant: boolean | null;
}

/** Which artifact template name a fingerprint was last reported as, in a trail. */
export interface ArtifactInTrail {
  trailId: string;
  fingerprint: string;
  templateReferenceName: string;
}

/** Owns the `artifacts` table (append-only: one row per report, each a moment of its trail). */
@Injectable()
export class ArtifactRepository {
  /**
   * Inserts a report; its created_at is its moment's. It takes the next `flow_seq` and `org_seq` from their
   * counters (flow first, then org, in every writer), which stay locked until commit: the numbers are dense.
   */
  async insert(manager: EntityManager, a: ArtifactReportRow): Promise<void> {
    await manager.query(
      `WITH flow_seq AS (
         INSERT INTO artifact_sequences AS s (org_id, scope_id, last_seq) VALUES ($2, $3, 1)
         ON CONFLICT (org_id, scope_id) DO UPDATE SET last_seq = s.last_seq + 1 RETURNING last_seq
       ), org_seq AS (
         INSERT INTO artifact_sequences AS s (org_id, scope_id, last_seq) SELECT $2, $2, 1 FROM flow_seq
         ON CONFLICT (org_id, scope_id) DO UPDATE SET last_seq = s.last_seq + 1 RETURNING last_seq
       )
       INSERT INTO artifacts (id, org_id, flow_id, trail_id, moment_number, fingerprint, filename, template_reference_name,
         git_commit, git_commit_info, build_url, commit_url, repo_url, repo_info, external_urls, annotations, reported_by,
         description, user_data, commits_list, is_compliant, created_at, flow_seq, org_seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
         (SELECT created_at FROM trail_moments WHERE trail_id = $4 AND moment_number = $5),
         (SELECT last_seq FROM flow_seq), (SELECT last_seq FROM org_seq))`,
      [
        a.id,
        a.orgId,
        a.flowId,
        a.trailId,
        a.momentNumber,
        a.fingerprint,
        a.filename,
        a.templateReferenceName,
        a.gitCommit,
        a.gitCommitInfo,
        a.buildUrl,
        a.commitUrl,
        a.repoUrl,
        a.repoInfo,
        a.externalUrls,
        a.annotations,
        a.reportedBy,
        a.description,
        a.userData,
        a.commitsList,
        a.isCompliant,
      ],
    );
  }

  /** The latest report of each (trail, fingerprint) asked for that exists, in one statement. */
  async findLatestInTrails(manager: EntityManager, wanted: Array<{ trailId: string; fingerprint: string }>): Promise<ArtifactInTrail[]> {
    if (!wanted.length) return [];
    const rows: Array<{ trail_id: string; fingerprint: string; template_reference_name: string }> = await manager.query(
      `SELECT DISTINCT ON (a.trail_id, a.fingerprint) a.trail_id, a.fingerprint, a.template_reference_name
       FROM artifacts a JOIN unnest($1::uuid[], $2::text[]) AS w(trail_id, fingerprint)
         ON a.trail_id = w.trail_id AND a.fingerprint = w.fingerprint
       ORDER BY a.trail_id, a.fingerprint, a.moment_number DESC`,
      [wanted.map((w) => w.trailId), wanted.map((w) => w.fingerprint)],
    );
    return rows.map((r) => ({ trailId: r.trail_id, fingerprint: r.fingerprint, templateReferenceName: r.template_reference_name }));
  }
}
