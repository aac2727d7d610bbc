import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ActionTarget } from '../domain/action-target';
import { ActionType } from '../domain/triggers';

/** An action as the routes show it (timestamps Unix seconds). */
export interface ActionRow {
  id: string;
  number: number;
  name: string;
  type: ActionType;
  targets: ActionTarget[];
  triggers: string[];
  scopes: string[];
  created_by: string;
  created_at: number;
  last_modified_at: number;
  last_success_at: number | null;
  last_failure_at: number | null;
}

/** A live action as the relay matches events against it. */
export interface LiveAction {
  id: string;
  org_id: string;
  org_name: string;
  number: number;
  name: string;
  type: ActionType;
  targets: ActionTarget[];
  triggers: string[];
  scopes: string[];
}

const COLUMNS = `id, number, name, type, targets, triggers, scopes, created_by,
  EXTRACT(EPOCH FROM created_at)::float8 AS created_at, EXTRACT(EPOCH FROM last_modified_at)::float8 AS last_modified_at,
  EXTRACT(EPOCH FROM last_success_at)::float8 AS last_success_at, EXTRACT(EPOCH FROM last_failure_at)::float8 AS last_failure_at`;

@Injectable()
export class ActionReader {
  constructor(private readonly dataSource: DataSource) {}

  /** The org's live actions (of one type, or all), by number. */
  list(orgId: string, type: ActionType | null = null): Promise<ActionRow[]> {
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM actions WHERE org_id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR type = $2) ORDER BY number`,
      [orgId, type],
    );
  }

  async find(orgId: string, number: number, type: ActionType | null = null): Promise<ActionRow | null> {
    const rows: ActionRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM actions WHERE org_id = $1 AND number = $2 AND deleted_at IS NULL AND ($3::text IS NULL OR type = $3)`,
      [orgId, number, type],
    );
    return rows[0] ?? null;
  }

  /** The live actions of these orgs, in the caller's transaction (the relay's). */
  liveFor(manager: EntityManager, orgIds: string[]): Promise<LiveAction[]> {
    return manager.query(
      `SELECT a.id, a.org_id, o.name AS org_name, a.number, a.name, a.type, a.targets, a.triggers, a.scopes
       FROM actions a JOIN organizations o ON o.id = a.org_id
       WHERE a.org_id = ANY($1::uuid[]) AND a.deleted_at IS NULL ORDER BY a.org_id, a.number`,
      [orgIds],
    );
  }
}
