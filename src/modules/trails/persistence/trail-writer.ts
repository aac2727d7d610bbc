import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';

export type MomentKind = 'trail_begun' | 'template_changed' | 'attestation' | 'artifact' | 'decision' | 'trail_updated';

export interface EnsuredTrail {
  flowId: string;
  trailId: string;
  /** The template the trail began with (null: untemplated). */
  templateId: string | null;
  created: boolean;
}

export interface RecordedMoment {
  momentNumber: number;
  createdAt: Date;
}

/**
 * The one write path into a trail's moment log, shared by every module that adds evidence (trails, artifacts,
 * attestations, decisions). Callers run inside a UnitOfWork transaction; the trail row stays locked until it
 * commits, so the moments of one trail are numbered 1, 2, 3 ... without gaps or races.
 */
@Injectable()
export class TrailWriter {
  /**
   * Finds or creates the flow (without template) and the trail, and locks the trail row FOR UPDATE.
   * A new trail takes the flow's current template and records moment 1 (`trail_begun`).
   */
  async ensureTrail(
    manager: EntityManager,
    orgId: string,
    flowName: string,
    trailName: string,
    actor: string,
  ): Promise<EnsuredTrail> {
    // Fast path (the common case for ingest): one round trip.
    const existing = await this.lockTrail(manager, orgId, flowName, trailName);
    if (existing) return { ...existing, created: false };

    const flow = await this.ensureFlow(manager, orgId, flowName, actor);
    const inserted: Array<{ id: string; template_id: string | null }> = await manager.query(
      `INSERT INTO trails (id, org_id, flow_id, name, template_id, created_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, clock_timestamp(), clock_timestamp())
       ON CONFLICT (flow_id, name) DO NOTHING
       RETURNING id, template_id`,
      [randomUUID(), orgId, flow.id, trailName, flow.templateId, actor],
    );
    if (inserted.length) {
      const trailId = inserted[0].id;
      await this.recordMoment(manager, trailId, 'trail_begun', null);
      return { flowId: flow.id, trailId, templateId: inserted[0].template_id, created: true };
    }
    // Another transaction created it concurrently (ON CONFLICT waited for its commit): lock it now.
    const raced = await this.lockTrail(manager, orgId, flowName, trailName);
    if (!raced) throw new Error(`trail ${flowName}/${trailName} vanished after a conflicting insert`);
    return { ...raced, created: false };
  }

  /** Adds the next moment of a locked trail (call ensureTrail, or lock the trail, first). */
  async recordMoment(
    manager: EntityManager,
    trailId: string,
    kind: MomentKind,
    subjectId: string | null,
  ): Promise<RecordedMoment> {
    const rows: Array<{ moment_number: number; created_at: Date }> = await manager.query(
      `WITH t AS (
         UPDATE trails SET last_moment = last_moment + 1, updated_at = clock_timestamp()
         WHERE id = $1
         RETURNING id, last_moment, template_id, updated_at
       )
       INSERT INTO trail_moments (trail_id, moment_number, created_at, kind, template_id, subject_id)
       SELECT id, last_moment, updated_at, $2, template_id, $3 FROM t
       RETURNING moment_number, created_at`,
      [trailId, kind, subjectId],
    );
    if (!rows.length) throw new Error(`trail ${trailId} not found while recording a moment`);
    return { momentNumber: Number(rows[0].moment_number), createdAt: new Date(rows[0].created_at) };
  }

  /** The latest report of an artifact with this fingerprint in the trail, or null. */
  async findArtifactInTrail(
    manager: EntityManager,
    trailId: string,
    fingerprint: string,
  ): Promise<{ id: string; templateReferenceName: string } | null> {
    const rows: Array<{ id: string; template_reference_name: string }> = await manager.query(
      `SELECT id, template_reference_name FROM artifacts
       WHERE trail_id = $1 AND fingerprint = $2
       ORDER BY moment_number DESC LIMIT 1`,
      [trailId, fingerprint],
    );
    return rows.length ? { id: rows[0].id, templateReferenceName: rows[0].template_reference_name } : null;
  }

  /** Finds or creates a flow (no template); race-safe. */
  async ensureFlow(
    manager: EntityManager,
    orgId: string,
    flowName: string,
    actor: string,
  ): Promise<{ id: string; templateId: string | null; created: boolean }> {
    const inserted: Array<{ id: string }> = await manager.query(
      `INSERT INTO flows (id, org_id, name, created_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (org_id, name) DO NOTHING RETURNING id`,
      [randomUUID(), orgId, flowName, actor],
    );
    if (inserted.length) return { id: inserted[0].id, templateId: null, created: true };
    const rows: Array<{ id: string; template_id: string | null }> = await manager.query(
      `SELECT id, template_id FROM flows WHERE org_id = $1 AND name = $2`,
      [orgId, flowName],
    );
    if (!rows.length) throw new Error(`flow ${flowName} vanished after a conflicting insert`);
    return { id: rows[0].id, templateId: rows[0].template_id, created: false };
  }

  private async lockTrail(
    manager: EntityManager,
    orgId: string,
    flowName: string,
    trailName: string,
  ): Promise<Omit<EnsuredTrail, 'created'> | null> {
    const rows: Array<{ id: string; flow_id: string; template_id: string | null }> = await manager.query(
      `SELECT t.id, t.flow_id, t.template_id
       FROM flows f JOIN trails t ON t.flow_id = f.id
       WHERE f.org_id = $1 AND f.name = $2 AND t.name = $3
       FOR UPDATE OF t`,
      [orgId, flowName, trailName],
    );
    return rows.length ? { flowId: rows[0].flow_id, trailId: rows[0].id, templateId: rows[0].template_id } : null;
  }
}
