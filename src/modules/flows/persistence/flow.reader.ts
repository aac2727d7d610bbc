import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { FlowTemplateSpec } from '../domain/flow-template';

export interface FlowRow {
  name: string;
  description: string;
  visibility: string;
  tags: Record<string, string> | null;
  template_id: string | null;
  template_version: number | null;
  template_spec: FlowTemplateSpec | null;
  repo_url: string | null;
  created_by: string;
  created_at: number;
  updated_at: number;
  archived_at: number | null;
  /** Its renames, oldest first (Unix seconds). */
  renames: Array<{ from: string; to: string; by: string; timestamp: number }>;
}

const FLOW_COLUMNS = `f.name, f.description, f.visibility, f.tags, f.template_id, ft.version AS template_version,
  ft.spec AS template_spec, f.repo_url, f.created_by,
  EXTRACT(EPOCH FROM f.created_at)::float8 AS created_at, EXTRACT(EPOCH FROM f.updated_at)::float8 AS updated_at,
  EXTRACT(EPOCH FROM f.archived_at)::float8 AS archived_at,
  (SELECT COALESCE(json_agg(json_build_object('from', r.old_name, 'to', r.new_name, 'by', r.renamed_by,
            'timestamp', EXTRACT(EPOCH FROM r.renamed_at)::float8) ORDER BY r.renamed_at), '[]')
     FROM flow_renames r WHERE r.org_id = f.org_id AND r.flow_id = f.id) AS renames`;
const FLOW_FROM = `FROM flows f LEFT JOIN flow_templates ft ON ft.id = f.template_id`;

export interface FlowListFilter {
  searchByName?: string;
  caseSensitive: boolean;
  /** true: only archived flows; otherwise only flows that are not archived. */
  archived?: boolean;
}

/** Read model of flows (with their current template) for the flow routes. */
@Injectable()
export class FlowReader {
  constructor(private readonly dataSource: DataSource) {}

  async find(orgId: string, name: string): Promise<FlowRow | null> {
    const rows: FlowRow[] = await this.dataSource.query(`SELECT ${FLOW_COLUMNS} ${FLOW_FROM} WHERE f.org_id = $1 AND f.name = $2`, [
      orgId,
      name,
    ]);
    return rows[0] ?? null;
  }

  /** All matching flows by name; with `page` (from 1) and `perPage`, that page and the total. */
  async list(orgId: string, filter: FlowListFilter, page?: { page: number; perPage: number }): Promise<{ rows: FlowRow[]; total: number }> {
    const params: unknown[] = [orgId];
    let where = `f.org_id = $1 AND f.archived_at IS ${filter.archived ? 'NOT NULL' : 'NULL'}`;
    if (filter.searchByName) {
      params.push(`%${filter.searchByName}%`);
      where += ` AND f.name ${filter.caseSensitive ? 'LIKE' : 'ILIKE'} $2`;
    }
    if (!page) {
      const rows: FlowRow[] = await this.dataSource.query(`SELECT ${FLOW_COLUMNS} ${FLOW_FROM} WHERE ${where} ORDER BY f.name`, params);
      return { rows, total: rows.length };
    }
    const [{ total }]: Array<{ total: number }> = await this.dataSource.query(`SELECT count(*)::int AS total FROM flows f WHERE ${where}`, params);
    const rows: FlowRow[] = await this.dataSource.query(
      `SELECT ${FLOW_COLUMNS} ${FLOW_FROM} WHERE ${where} ORDER BY f.name LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
      params,
    );
    return { rows, total };
  }
}
