import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { ActionTarget } from '../domain/action-target';
import { ActionType } from '../domain/triggers';

export interface ActionFields {
  name: string;
  type: ActionType;
  targets: ActionTarget[];
  triggers: string[];
  /** flow names (flow action) or environment names (environment action) */
  scopes: string[];
}

export interface StoredAction extends ActionFields {
  id: string;
  number: number;
}

/** Owns `actions`: the rules, and the times of their latest successful and failed delivery attempts. */
@Injectable()
export class ActionRepository {
  /** Serialises the writers of one org's actions until the transaction ends (numbers, names, subscriptions). */
  async lockOrg(manager: EntityManager, orgId: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('veritrail.actions:' || $1::text, 0))`, [orgId]);
  }

  async findLiveByName(manager: EntityManager, orgId: string, name: string): Promise<StoredAction | null> {
    const rows: StoredAction[] = await manager.query(
      `SELECT id, number, name, type, targets, triggers, scopes FROM actions WHERE org_id = $1 AND name = $2 AND deleted_at IS NULL`,
      [orgId, name],
    );
    return rows[0] ?? null;
  }

  async findLiveByNumber(manager: EntityManager, orgId: string, number: number): Promise<StoredAction | null> {
    const rows: StoredAction[] = await manager.query(
      `SELECT id, number, name, type, targets, triggers, scopes FROM actions WHERE org_id = $1 AND number = $2 AND deleted_at IS NULL`,
      [orgId, number],
    );
    return rows[0] ?? null;
  }

  /** Gives an action a new name (the caller checked no live action of the org has it; call under lockOrg). */
  async rename(manager: EntityManager, id: string, name: string): Promise<void> {
    await manager.query(`UPDATE actions SET name = $2 WHERE id = $1`, [id, name]);
  }

  /** Inserts a new action with the org's next number (numbers are never reused). Call under lockOrg. */
  async insert(manager: EntityManager, orgId: string, fields: ActionFields, actor: string, at: Date): Promise<StoredAction> {
    const rows: StoredAction[] = await manager.query(
      `INSERT INTO actions (id, org_id, number, name, type, targets, triggers, scopes, created_by, created_at, last_modified_at)
       SELECT $1, $2, COALESCE(max(number), 0) + 1, $3, $4, $5, $6, $7, $8, $9, $9 FROM actions WHERE org_id = $2
       RETURNING id, number, name, type, targets, triggers, scopes`,
      [randomUUID(), orgId, fields.name, fields.type, JSON.stringify(fields.targets), fields.triggers, fields.scopes, actor, at],
    );
    return rows[0];
  }

  async update(manager: EntityManager, id: string, fields: ActionFields, at: Date): Promise<void> {
    await manager.query(`UPDATE actions SET targets = $2, triggers = $3, scopes = $4, last_modified_at = $5 WHERE id = $1`, [
      id,
      JSON.stringify(fields.targets),
      fields.triggers,
      fields.scopes,
      at,
    ]);
  }

  /** Marks a live action of `type` deleted; false when there is none with that number. */
  async softDelete(manager: EntityManager, orgId: string, number: number, type: ActionType | null, at: Date): Promise<boolean> {
    const rows = await manager.query(
      `WITH d AS (
         UPDATE actions SET deleted_at = $4 WHERE org_id = $1 AND number = $2 AND deleted_at IS NULL AND ($3::text IS NULL OR type = $3)
         RETURNING id
       )
       SELECT id FROM d`,
      [orgId, number, type, at],
    );
    return rows.length > 0;
  }

  /** Every trigger of the org's live actions (what its outbox subscriptions must cover). */
  async liveTriggers(manager: EntityManager, orgId: string): Promise<string[]> {
    const rows: Array<{ t: string }> = await manager.query(
      `SELECT DISTINCT unnest(triggers) AS t FROM actions WHERE org_id = $1 AND deleted_at IS NULL`,
      [orgId],
    );
    return rows.map((r) => r.t);
  }

  /** Records when the latest attempt succeeded or failed (the later one wins if attempts finish out of order). */
  async recordOutcome(manager: EntityManager, actionId: string, succeeded: boolean, at: Date): Promise<void> {
    const column = succeeded ? 'last_success_at' : 'last_failure_at';
    await manager.query(`UPDATE actions SET ${column} = GREATEST(${column}, $2) WHERE id = $1`, [actionId, at]);
  }
}
