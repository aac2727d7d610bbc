import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

export interface StoredEnvelope {
  /** The envelope's RFC 8785 canonical JSON: the exact bytes served. */
  envelope: string;
  sha256: string;
}

/** Owns `evaluation_envelopes` (append-only: a trigger refuses UPDATE and DELETE). */
@Injectable()
export class EvaluationEnvelopeRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, orgId: string, evaluationId: string, e: StoredEnvelope): Promise<void> {
    await manager.query(`INSERT INTO evaluation_envelopes (org_id, evaluation_id, envelope, sha256) VALUES ($1, $2, $3, $4)`, [
      orgId,
      evaluationId,
      e.envelope,
      e.sha256,
    ]);
  }

  async find(orgId: string, evaluationId: string): Promise<StoredEnvelope | null> {
    const rows = await this.dataSource.query(`SELECT envelope, sha256 FROM evaluation_envelopes WHERE org_id = $1 AND evaluation_id = $2`, [
      orgId,
      evaluationId,
    ]);
    return rows[0] ? { envelope: rows[0].envelope, sha256: rows[0].sha256 } : null;
  }

  /** Envelopes of many evaluations at once (the audit package). */
  async findMany(orgId: string, evaluationIds: readonly string[]): Promise<Map<string, StoredEnvelope>> {
    if (evaluationIds.length === 0) return new Map();
    const rows: Array<{ evaluation_id: string; envelope: string; sha256: string }> = await this.dataSource.query(
      `SELECT evaluation_id, envelope, sha256 FROM evaluation_envelopes WHERE org_id = $1 AND evaluation_id = ANY($2::uuid[])`,
      [orgId, evaluationIds],
    );
    return new Map(rows.map((r) => [r.evaluation_id, { envelope: r.envelope, sha256: r.sha256 }]));
  }
}
