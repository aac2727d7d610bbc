import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { FlowTemplateSpec } from '../domain/flow-template';

export interface StoredTemplate {
  id: string;
  version: number;
  spec: FlowTemplateSpec;
  source: string;
}

/**
 * Template versions of a flow. A version is immutable once written, so reads are cached without expiry
 * (bounded): compliance of any trail at any moment needs the template it was evaluated against.
 */
@Injectable()
export class FlowTemplates {
  private readonly cache = new Map<string, StoredTemplate>();

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores `source` as a new template version of the flow unless it equals `currentTemplateId`'s source.
   * `makeCurrent`: it becomes the flow's template (create flow); a trail's own template (begin trail with a
   * template file) does not. Locks the flow row (after any trail lock the caller holds, the order every
   * writer uses). Returns the template id in force.
   */
  async saveVersion(
    manager: EntityManager,
    orgId: string,
    flowId: string,
    currentTemplateId: string | null,
    spec: FlowTemplateSpec,
    source: string,
    makeCurrent = true,
  ): Promise<string> {
    if (currentTemplateId) {
      const current = await this.get(currentTemplateId, manager);
      if (current && current.source === source) return current.id;
    }
    // Version numbers are per flow: take the flow row so two uploads cannot pick the same number.
    await manager.query(`SELECT id FROM flows WHERE id = $1 FOR NO KEY UPDATE`, [flowId]);
    const id = randomUUID();
    await manager.query(
      `INSERT INTO flow_templates (id, org_id, flow_id, version, spec, source)
       SELECT $1, $2, $3, COALESCE(MAX(version), 0) + 1, $4, $5 FROM flow_templates WHERE flow_id = $3`,
      [id, orgId, flowId, JSON.stringify(spec), source],
    );
    if (makeCurrent) {
      await manager.query(`UPDATE flows SET template_id = $2, updated_at = now() WHERE id = $1`, [flowId, id]);
    }
    return id;
  }

  async get(id: string, manager: EntityManager = this.dataSource.manager): Promise<StoredTemplate | null> {
    const hit = this.cache.get(id);
    if (hit) return hit;
    const rows: Array<{ id: string; version: number; spec: FlowTemplateSpec; source: string }> = await manager.query(
      `SELECT id, version, spec, source FROM flow_templates WHERE id = $1`,
      [id],
    );
    if (!rows.length) return null;
    const stored: StoredTemplate = { id: rows[0].id, version: rows[0].version, spec: rows[0].spec, source: rows[0].source };
    if (this.cache.size >= 5_000) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(id, stored);
    return stored;
  }
}
