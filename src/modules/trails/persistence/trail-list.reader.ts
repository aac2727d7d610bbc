import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { TrailRecord } from '../domain/trail-state';
import { TRAIL_COLUMNS } from '../read-model/trail-state.reader';

const COLUMNS = TRAIL_COLUMNS.sql.text;

export interface TrailListFilter {
  /** the flow's id (resolved by the caller: a missing flow is the caller's answer to give) */
  flowId?: string;
  flowTag?: { key: string; value: string };
  /** trails that reported an artifact with this fingerprint */
  fingerprint?: string;
}

/** Read model of the trail lists: newest first, filtered. */
@Injectable()
export class TrailListReader {
  constructor(private readonly dataSource: DataSource) {}

  async flowId(orgId: string, flowName: string): Promise<string | null> {
    const rows: Array<{ id: string }> = await this.dataSource.query(`SELECT id FROM flows WHERE org_id = $1 AND name = $2`, [orgId, flowName]);
    return rows[0]?.id ?? null;
  }

  async page(orgId: string, filter: TrailListFilter, page: number, perPage: number): Promise<{ rows: TrailRecord[]; total: number }> {
    const params: unknown[] = [orgId];
    const where = ['t.org_id = $1'];
    if (filter.flowId !== undefined) {
      params.push(filter.flowId);
      where.push(`t.flow_id = $${params.length}`);
    }
    if (filter.flowTag) {
      params.push(JSON.stringify({ [filter.flowTag.key]: filter.flowTag.value }));
      where.push(`f.tags @> $${params.length}::jsonb`);
    }
    if (filter.fingerprint) {
      params.push(filter.fingerprint);
      where.push(`t.id IN (SELECT trail_id FROM artifacts WHERE org_id = $1 AND fingerprint = $${params.length})`);
    }
    const from = `FROM trails t JOIN flows f ON f.id = t.flow_id WHERE ${where.join(' AND ')}`;
    const [{ total }]: Array<{ total: number }> = await this.dataSource.query(`SELECT count(*)::int AS total ${from}`, params);
    const rows: TrailRecord[] = await this.dataSource.query(
      `SELECT ${COLUMNS} ${from} ORDER BY t.created_at DESC, t.id LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
      params,
    );
    return { rows, total };
  }
}
