import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ATTESTATION_ROWS, AttestationRow } from './attestation.reader';

const ROWS = ATTESTATION_ROWS.text;

/**
 * Reads of attestations across an org: the org-wide listing, by commit, and by artifact. The listing walks
 * `attestations_org_time_idx` newest first; its total is the sum of the org's flow counters (no count(*)).
 * Commits are found through `attestations_org_commit_idx` (the attestation's `git_commit_info.sha1`).
 */
@Injectable()
export class AttestationSearchReader {
  constructor(private readonly dataSource: DataSource) {}

  async orgPage(orgId: string, page: number, perPage: number): Promise<{ total: number; rows: AttestationRow[] }> {
    const [{ total }]: Array<{ total: string }> = await this.dataSource.query(
      `SELECT COALESCE(sum(attestation_count), 0) AS total FROM flow_attestation_counters WHERE org_id = $1`,
      [orgId],
    );
    const rows: AttestationRow[] = await this.dataSource.query(
      `${ROWS}
       WHERE a.org_id = $1
       ORDER BY a.created_at DESC, a.id DESC
       LIMIT $2 OFFSET $3`,
      [orgId, perPage, (page - 1) * perPage],
    );
    return { total: Number(total), rows };
  }

  /** Attestations whose commit is one of `commits`, newest first, narrowed by the optional filters. */
  async forCommits(
    orgId: string,
    commits: string[],
    filters: { flowName?: string; attestationName?: string; attestationId?: string; types?: { builtIn: string | null; customName: string | null } },
  ): Promise<AttestationRow[]> {
    return this.dataSource.query(
      `${ROWS}
       WHERE a.org_id = $1 AND a.git_commit_info IS NOT NULL AND (a.git_commit_info->>'sha1') = ANY($2::text[])
         AND ($3::text IS NULL OR f.name = $3)
         AND ($4::text IS NULL OR a.name = $4)
         AND ($5::text IS NULL OR a.attestation_type = $5)
         AND ($6::text IS NULL OR (a.attestation_type = 'custom' AND a.data->>'type_name' = $6) OR a.attestation_type = 'custom:' || $6)
         AND ($7::text IS NULL OR a.id::text = $7)
       ORDER BY a.created_at DESC, a.id DESC`,
      [
        orgId,
        commits,
        filters.flowName ?? null,
        filters.attestationName ?? null,
        filters.types?.builtIn ?? null,
        filters.types?.customName ?? null,
        filters.attestationId ?? null,
      ],
    );
  }

  /** Null when the flow does not exist. */
  async flowId(orgId: string, flowName: string): Promise<string | null> {
    const rows: Array<{ id: string }> = await this.dataSource.query(`SELECT id FROM flows WHERE org_id = $1 AND name = $2`, [orgId, flowName]);
    return rows[0]?.id ?? null;
  }

  /**
   * The versions of attestation `name` about the artifact whose fingerprint starts with `fingerprint`, newest
   * first: attested with that fingerprint, or by the artifact's template name in a trail where the artifact
   * with that fingerprint was reported (the slot `<artifact>.<name>`).
   */
  async forArtifact(orgId: string, flowId: string, fingerprint: string, name: string): Promise<AttestationRow[]> {
    return this.dataSource.query(
      `${ROWS}
       WHERE a.org_id = $1 AND a.flow_id = $2 AND a.name = $4 AND a.artifact_name IS NOT NULL
         AND (starts_with(a.artifact_fingerprint, $3) OR EXISTS (
           SELECT 1 FROM artifacts r
           WHERE r.org_id = a.org_id AND r.trail_id = a.trail_id AND r.template_reference_name = a.artifact_name AND starts_with(r.fingerprint, $3)))
       ORDER BY a.created_at DESC, a.id DESC`,
      [orgId, flowId, fingerprint, name],
    );
  }
}
