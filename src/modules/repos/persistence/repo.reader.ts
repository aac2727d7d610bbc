import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RepoRecord } from '../dto/repo.response';

/** Read model of repos for the repo routes. */
@Injectable()
export class RepoReader {
  constructor(private readonly dataSource: DataSource) {}

  /** A repo by its name (`owner/repo`); when two provider repos share a name, the most recently updated. */
  async findByName(orgId: string, name: string): Promise<RepoRecord | null> {
    const rows: RepoRecord[] = await this.dataSource.query(
      `SELECT id, external_id, name, url, provider, description, namespace_path, additional_info, tags, created_at, updated_at
       FROM repos WHERE org_id = $1 AND name = $2
       ORDER BY updated_at DESC LIMIT 1`,
      [orgId, name],
    );
    return rows[0] ?? null;
  }
}
