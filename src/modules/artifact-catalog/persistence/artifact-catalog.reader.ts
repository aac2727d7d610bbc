import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One artifact report with its flow and trail, as the catalog's read shapes need it. Times are Unix seconds. */
export interface CatalogRow {
  id: string;
  fingerprint: string;
  filename: string;
  template_reference_name: string;
  git_commit: string | null;
  git_commit_info: Record<string, unknown> | null;
  build_url: string | null;
  commit_url: string | null;
  repo_url: string | null;
  repo_info: Record<string, unknown> | null;
  external_urls: Record<string, { href: string; fingerprint?: string }> | null;
  annotations: Record<string, unknown> | null;
  user_data: unknown;
  created_at: number;
  flow_name: string;
  trail_id: string;
  trail_name: string;
  template_id: string | null;
  /** The trail's last moment: its current compliance is computed as of it. */
  last_moment: number;
  moment_number: number;
}

/** Where a fingerprint runs or ran, by environment: the artifact's runs (environments module's table). */
export interface RunRow {
  fingerprint: string;
  environment_name: string;
  /** The environment's latest snapshot number. */
  last_snapshot: number;
  /** Present in the latest snapshot. */
  running: boolean;
  /** The snapshot it appeared in (the first of its latest stretch of runs) and when. */
  since_snapshot: number;
  since: number;
  /** The snapshot it was last seen in, when it no longer runs, and when it exited. */
  exited_snapshot: number | null;
  exited_at: number | null;
}

export const CATALOG_COLUMNS = `a.id, a.fingerprint, a.filename, a.template_reference_name, a.git_commit, a.git_commit_info,
  a.build_url, a.commit_url, a.repo_url, a.repo_info, a.external_urls, a.annotations, a.user_data,
  EXTRACT(EPOCH FROM a.created_at)::float8 AS created_at, f.name AS flow_name, t.id AS trail_id, t.name AS trail_name,
  t.template_id, t.last_moment, a.moment_number`;

/** What most reads ask for at most: a search is cut at this many reports. */
export const MAX_MATCHES = 100;

/**
 * Read model of artifacts: joins the artifacts', the ledger's (trails), the flows' and the environments' (runs)
 * tables, as read models may. Pages are ranges of the dense `org_seq` / `flow_seq` numbers (newest first), so
 * every page costs one index range read however deep it is.
 */
@Injectable()
export class ArtifactCatalogReader {
  constructor(private readonly dataSource: DataSource) {}

  async flowId(orgId: string, flowName: string): Promise<string | null> {
    const rows: Array<{ id: string }> = await this.dataSource.query(`SELECT id FROM flows WHERE org_id = $1 AND name = $2`, [orgId, flowName]);
    return rows[0]?.id ?? null;
  }

  /** One page, newest first, of the org's artifacts (or one flow's): `total` is the number of reports. */
  async page(orgId: string, flowId: string | null, page: number, perPage: number): Promise<{ rows: CatalogRow[]; total: number }> {
    const scope = flowId ?? orgId;
    const counter: Array<{ last_seq: string }> = await this.dataSource.query(
      `SELECT last_seq FROM artifact_sequences WHERE org_id = $1 AND scope_id = $2`,
      [orgId, scope],
    );
    const total = counter.length ? Number(counter[0].last_seq) : 0;
    const hi = total - (page - 1) * perPage;
    if (hi < 1) return { rows: [], total };
    const lo = Math.max(1, hi - perPage + 1);
    const rows: CatalogRow[] = flowId
      ? await this.dataSource.query(
          `SELECT ${CATALOG_COLUMNS} FROM artifacts a JOIN trails t ON t.id = a.trail_id JOIN flows f ON f.id = a.flow_id
           WHERE a.flow_id = $1 AND a.org_id = $2 AND a.flow_seq BETWEEN $3 AND $4 ORDER BY a.flow_seq DESC`,
          [flowId, orgId, lo, hi],
        )
      : await this.dataSource.query(
          `SELECT ${CATALOG_COLUMNS} FROM artifacts a JOIN trails t ON t.id = a.trail_id JOIN flows f ON f.id = a.flow_id
           WHERE a.org_id = $1 AND a.org_seq BETWEEN $2 AND $3 ORDER BY a.org_seq DESC`,
          [orgId, lo, hi],
        );
    return { rows, total };
  }

  /**
   * The org's artifacts whose `repo_info.name` is `repoName`, newest first (optionally of one flow). Pages by
   * offset along an index of (repo name, number): cheap for the first pages, linear in the depth.
   */
  async pageByRepo(orgId: string, repoName: string, flowId: string | null, page: number, perPage: number): Promise<{ rows: CatalogRow[]; total: number }> {
    const where = `a.org_id = $1 AND a.repo_info->>'name' = $2 ${flowId ? 'AND a.flow_id = $3' : ''}`;
    const params: unknown[] = flowId ? [orgId, repoName, flowId] : [orgId, repoName];
    const [count, rows] = await Promise.all([
      this.dataSource.query(`SELECT count(*)::int AS n FROM artifacts a WHERE ${where}`, params) as Promise<Array<{ n: number }>>,
      this.dataSource.query(
        `SELECT ${CATALOG_COLUMNS} FROM artifacts a JOIN trails t ON t.id = a.trail_id JOIN flows f ON f.id = a.flow_id
         WHERE ${where} ORDER BY a.org_seq DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
        params,
      ) as Promise<CatalogRow[]>,
    ]);
    return { rows, total: count[0].n };
  }

  /** A flow's reports of one fingerprint (optionally in one trail), newest first. */
  async byFingerprint(orgId: string, flowId: string, fingerprint: string, trailName?: string): Promise<CatalogRow[]> {
    return this.dataSource.query(
      `SELECT ${CATALOG_COLUMNS} FROM artifacts a JOIN trails t ON t.id = a.trail_id JOIN flows f ON f.id = a.flow_id
       WHERE a.org_id = $1 AND a.fingerprint = $2 AND a.flow_id = $3 AND ($4::text IS NULL OR t.name = $4)
       ORDER BY a.org_seq DESC LIMIT ${MAX_MATCHES}`,
      [orgId, fingerprint, flowId, trailName ?? null],
    );
  }

  /** A flow's reports built from one commit (optionally in one trail), newest first. */
  async byCommit(orgId: string, flowId: string, commit: string, trailName?: string): Promise<CatalogRow[]> {
    return this.dataSource.query(
      `SELECT ${CATALOG_COLUMNS} FROM artifacts a JOIN trails t ON t.id = a.trail_id JOIN flows f ON f.id = a.flow_id
       WHERE a.flow_id = $1 AND a.git_commit = $2 AND a.org_id = $3 AND ($4::text IS NULL OR t.name = $4)
       ORDER BY a.org_seq DESC LIMIT ${MAX_MATCHES}`,
      [flowId, commit, orgId, trailName ?? null],
    );
  }

  /**
   * Reports whose fingerprint or commit starts with `prefix` (lowercase hex, checked by the caller), newest
   * first, at most MAX_MATCHES: two index range reads (`text_pattern_ops`), never a scan of the org. Each branch
   * keeps its newest MAX_MATCHES (a top-N sort of its matches): a LIMIT without ORDER BY kept whichever rows the
   * index gave first, the oldest reports of a fingerprint, and dropped the newest.
   */
  async byShaPrefix(orgId: string, prefix: string): Promise<CatalogRow[]> {
    return this.dataSource.query(
      `SELECT ${CATALOG_COLUMNS} FROM (
         (SELECT id, org_seq FROM artifacts WHERE org_id = $1 AND fingerprint LIKE $2 || '%' ORDER BY org_seq DESC LIMIT ${MAX_MATCHES})
         UNION
         (SELECT id, org_seq FROM artifacts WHERE org_id = $1 AND git_commit LIKE $2 || '%' ORDER BY org_seq DESC LIMIT ${MAX_MATCHES})
       ) m
       JOIN artifacts a ON a.id = m.id AND a.org_id = $1
       JOIN trails t ON t.id = a.trail_id JOIN flows f ON f.id = a.flow_id
       ORDER BY m.org_seq DESC LIMIT ${MAX_MATCHES}`,
      [orgId, prefix],
    );
  }

  /** Where each fingerprint runs now and where it ran, per environment (one row per environment). */
  async runs(orgId: string, fingerprints: readonly string[]): Promise<RunRow[]> {
    if (!fingerprints.length) return [];
    const rows: Array<RunRow & { since: number; exited_at: number | null }> = await this.dataSource.query(
      `WITH per_env AS (
         SELECT r.fingerprint, r.environment_id, max(r.first_snapshot) AS latest_first,
           bool_or(r.ended_snapshot IS NULL) AS running, max(r.ended_snapshot) AS last_end
         FROM environment_artifact_runs r
         WHERE r.org_id = $1 AND r.fingerprint = ANY($2::text[])
         GROUP BY r.fingerprint, r.environment_id)
       SELECT p.fingerprint, e.name AS environment_name, e.last_snapshot, p.running,
         p.latest_first AS since_snapshot,
         EXTRACT(EPOCH FROM s.created_at)::float8 AS since,
         CASE WHEN p.running THEN NULL ELSE p.last_end END AS exited_snapshot,
         CASE WHEN p.running THEN NULL ELSE EXTRACT(EPOCH FROM x.created_at)::float8 END AS exited_at
       FROM per_env p
       JOIN environments e ON e.id = p.environment_id AND e.org_id = $1
       JOIN environment_snapshots s ON s.org_id = $1 AND s.environment_id = p.environment_id AND s.number = p.latest_first
       LEFT JOIN environment_snapshots x ON x.org_id = $1 AND x.environment_id = p.environment_id AND x.number = p.last_end
       ORDER BY e.name`,
      [orgId, fingerprints],
    );
    return rows.map((r) => ({ ...r, since: Number(r.since), exited_at: r.exited_at === null ? null : Number(r.exited_at) }));
  }

  /** The commit of the latest report of a fingerprint in a flow (optionally on a branch of its commit info). */
  async latestCommit(orgId: string, flowId: string, fingerprint: string, branch?: string): Promise<{ found: boolean; commit: string | null }> {
    const rows: Array<{ git_commit: string | null }> = await this.dataSource.query(
      `SELECT a.git_commit FROM artifacts a
       WHERE a.org_id = $1 AND a.fingerprint = $2 AND a.flow_id = $3
         AND ($4::text IS NULL OR a.git_commit_info->>'branch' = $4)
       ORDER BY a.org_seq DESC LIMIT 1`,
      [orgId, fingerprint, flowId, branch ?? null],
    );
    return rows.length ? { found: true, commit: rows[0].git_commit } : { found: false, commit: null };
  }

  /** Reports created in [from, to] (Unix seconds), newest first, optionally of one repo (by id or name). */
  async builds(
    orgId: string,
    f: { from: number; to: number; repoId?: string; repoName?: string },
    page: { offset: number; limit: number },
  ): Promise<{ rows: CatalogRow[]; total: number }> {
    const where = `a.org_id = $1 AND a.created_at BETWEEN to_timestamp($2) AND to_timestamp($3)
      AND ($4::text IS NULL OR a.repo_info->>'id' = $4) AND ($5::text IS NULL OR a.repo_info->>'name' = $5)`;
    const params = [orgId, f.from, f.to, f.repoId ?? null, f.repoName ?? null];
    const [count, rows] = await Promise.all([
      this.dataSource.query(`SELECT count(*)::int AS n FROM artifacts a WHERE ${where}`, params) as Promise<Array<{ n: number }>>,
      this.dataSource.query(
        `SELECT ${CATALOG_COLUMNS} FROM artifacts a JOIN trails t ON t.id = a.trail_id JOIN flows f ON f.id = a.flow_id
         WHERE ${where} ORDER BY a.created_at DESC, a.org_seq DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
        params,
      ) as Promise<CatalogRow[]>,
    ]);
    return { rows, total: count[0].n };
  }
}
