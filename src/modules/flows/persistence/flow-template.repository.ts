import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
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
 * What the template cache may hold, counted in characters (UTF-16 code units) of each version's source and
 * parsed spec: a version's source may be up to 10 MB, so a count of versions bounds nothing.
 */
const CACHE_CHARS = 32 * 1024 * 1024;
/** A larger version is not cached (read each time): one would otherwise push out every other. */
const CACHE_ENTRY_CHARS = 2 * 1024 * 1024;

/**
 * Owns `flow_templates`: the template versions of a flow. A version is immutable once written, so reads are
 * cached without expiry, bounded by size (LRU): compliance of any trail at any moment needs the template it
 * was evaluated against, and a trail's answer shows its source.
 */
@Injectable()
export class FlowTemplateRepository {
  private readonly cache = new LRUCache<string, StoredTemplate>({
    max: 5_000,
    maxSize: CACHE_CHARS,
    maxEntrySize: CACHE_ENTRY_CHARS,
    sizeCalculation: (t) => Math.max(1, t.source.length + JSON.stringify(t.spec).length),
  });

  constructor(private readonly dataSource: DataSource) {}

  /** Inserts the next version number of the flow (the caller holds the flow row, so numbers cannot collide). */
  async insertVersion(manager: EntityManager, orgId: string, flowId: string, spec: FlowTemplateSpec, source: string): Promise<string> {
    const id = randomUUID();
    await manager.query(
      `INSERT INTO flow_templates (id, org_id, flow_id, version, spec, source)
       SELECT $1, $2, $3, COALESCE(MAX(version), 0) + 1, $4, $5 FROM flow_templates WHERE flow_id = $3`,
      [id, orgId, flowId, JSON.stringify(spec), source],
    );
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
    this.cache.set(id, stored);
    return stored;
  }
}
