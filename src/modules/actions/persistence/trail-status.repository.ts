import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** Owns `action_trail_status`: the last compliance status the compliance watch saw per trail. */
@Injectable()
export class TrailStatusRepository {
  /** Serialises watchers of one trail until the transaction ends, and returns what was last seen. */
  async lock(manager: EntityManager, orgId: string, trailId: string): Promise<{ moment_number: number; status: string } | null> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('veritrail.trail-status:' || $1::text, 0))`, [trailId]);
    const rows = await manager.query(`SELECT moment_number, status FROM action_trail_status WHERE org_id = $1 AND trail_id = $2`, [orgId, trailId]);
    return rows[0] ?? null;
  }

  async save(manager: EntityManager, orgId: string, trailId: string, momentNumber: number, status: string): Promise<void> {
    await manager.query(
      `INSERT INTO action_trail_status (org_id, trail_id, moment_number, status) VALUES ($1, $2, $3, $4)
       ON CONFLICT (org_id, trail_id) DO UPDATE SET moment_number = EXCLUDED.moment_number, status = EXCLUDED.status`,
      [orgId, trailId, momentNumber, status],
    );
  }
}
