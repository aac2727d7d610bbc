import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One trail that reported a fingerprint: its latest report there, with the trail's place in its moment log. */
export interface ArtifactProvenance {
  fingerprint: string;
  flowName: string;
  trailId: string;
  trailName: string;
  /** The trail's template and last moment: what its current compliance state is computed from. */
  templateId: string | null;
  lastMoment: number;
  templateReferenceName: string;
  filename: string;
  gitCommit: string | null;
  commitUrl: string | null;
}

/**
 * Read model: which flows and trails reported a fingerprint (joins the ledger's trails and the flows table,
 * as read models may). One statement for any number of fingerprints, by the (org_id, fingerprint) index.
 */
@Injectable()
export class ArtifactProvenanceReader {
  constructor(private readonly dataSource: DataSource) {}

  async provenanceOf(orgId: string, fingerprints: readonly string[]): Promise<ArtifactProvenance[]> {
    if (!fingerprints.length) return [];
    const rows: Array<{
      fingerprint: string;
      flow_name: string;
      trail_id: string;
      trail_name: string;
      template_id: string | null;
      last_moment: number;
      template_reference_name: string;
      filename: string;
      git_commit: string | null;
      commit_url: string | null;
    }> = await this.dataSource.query(
      `SELECT DISTINCT ON (a.fingerprint, a.trail_id) a.fingerprint, f.name AS flow_name, t.id AS trail_id, t.name AS trail_name,
         t.template_id, t.last_moment, a.template_reference_name, a.filename, a.git_commit, a.commit_url
       FROM artifacts a
       JOIN trails t ON t.id = a.trail_id
       JOIN flows f ON f.id = a.flow_id
       WHERE a.org_id = $1 AND a.fingerprint = ANY($2::text[])
       ORDER BY a.fingerprint, a.trail_id, a.moment_number DESC`,
      [orgId, fingerprints],
    );
    return rows.map((r) => ({
      fingerprint: r.fingerprint,
      flowName: r.flow_name,
      trailId: r.trail_id,
      trailName: r.trail_name,
      templateId: r.template_id,
      lastMoment: r.last_moment,
      templateReferenceName: r.template_reference_name,
      filename: r.filename,
      gitCommit: r.git_commit,
      commitUrl: r.commit_url,
    }));
  }
}
