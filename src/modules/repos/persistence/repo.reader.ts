import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RepoRecord } from '../dto/repo.response';

const REPO_COLUMNS = 'id, external_id, name, url, provider, description, namespace_path, additional_info, tags, created_at, updated_at';

export interface RepoListFilter {
  /** Exact name (ignored when `repoId` is given). */
  name?: string;
  /** Name contains (case-insensitive). */
  search?: string;
  provider?: string;
  /** The provider's id (`repo_id`). */
  repoId?: string;
  /** Each `key` (has the tag) or `key:value` / `key=value` (has it with that value); all must hold. */
  tags: string[];
  direction: 'asc' | 'desc';
}

/** Read model of repos for the repo routes. */
@Injectable()
export class RepoReader {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * A repo by its name (`owner/repo`), of one provider when given; when two provider repos share a name, the
   * most recently updated.
   */
  async findByName(orgId: string, name: string, provider?: string): Promise<RepoRecord | null> {
    const rows: RepoRecord[] = await this.dataSource.query(
      `SELECT ${REPO_COLUMNS} FROM repos WHERE org_id = $1 AND name = $2 AND ($3::text IS NULL OR provider = $3)
       ORDER BY updated_at DESC LIMIT 1`,
      [orgId, name, provider ?? null],
    );
    return rows[0] ?? null;
  }

  /** One page of the org's repos matching the filter, sorted by name (then provider, then id), and the total. */
  async list(orgId: string, filter: RepoListFilter, page: { page: number; perPage: number }): Promise<{ rows: RepoRecord[]; total: number }> {
    const params: unknown[] = [orgId];
    const where = ['org_id = $1'];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (filter.repoId !== undefined) where.push(`external_id = ${param(filter.repoId)}`);
    else if (filter.name !== undefined) where.push(`name = ${param(filter.name)}`);
    if (filter.search) where.push(`name ILIKE ${param(`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
    if (filter.provider !== undefined) where.push(`provider = ${param(filter.provider)}`);
    for (const tag of filter.tags) {
      const at = tag.search(/[:=]/);
      if (at < 0) where.push(`tags ? ${param(tag)}`);
      else where.push(`tags ->> ${param(tag.slice(0, at))} = ${param(tag.slice(at + 1))}`);
    }
    const direction = filter.direction === 'desc' ? 'DESC' : 'ASC';
    const [{ total }]: Array<{ total: number }> = await this.dataSource.query(`SELECT count(*)::int AS total FROM repos WHERE ${where.join(' AND ')}`, params);
    const rows: RepoRecord[] = await this.dataSource.query(
      `SELECT ${REPO_COLUMNS} FROM repos WHERE ${where.join(' AND ')}
       ORDER BY name ${direction}, provider ${direction} NULLS FIRST, id ${direction} LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
      params,
    );
    return { rows, total };
  }

  /** The distinct tag (key, value) pairs over the org's repos, sorted by key then value. */
  async tagChoices(orgId: string): Promise<Array<{ key: string; value: string }>> {
    return this.dataSource.query(
      `SELECT key, value FROM (
         SELECT DISTINCT t.key, t.value FROM repos r CROSS JOIN LATERAL jsonb_each_text(r.tags) AS t(key, value) WHERE r.org_id = $1
       ) d ORDER BY key COLLATE "C", value COLLATE "C"`,
      [orgId],
    );
  }
}
