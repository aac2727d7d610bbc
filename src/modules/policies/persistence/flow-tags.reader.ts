import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Read model: the tags of flows by name (joins the flows table), for `flow.tags.<key>` in expressions. */
@Injectable()
export class FlowTagsReader {
  constructor(private readonly dataSource: DataSource) {}

  async tagsOf(orgId: string, flowNames: readonly string[]): Promise<Map<string, Record<string, string>>> {
    if (!flowNames.length) return new Map();
    const rows: Array<{ name: string; tags: Record<string, string> | null }> = await this.dataSource.query(
      `SELECT name, tags FROM flows WHERE org_id = $1 AND name = ANY($2)`,
      [orgId, flowNames],
    );
    return new Map(rows.map((r) => [r.name, r.tags ?? {}]));
  }
}
