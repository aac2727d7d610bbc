import { DataSource } from 'typeorm';
import { waitFor } from './wait';

/** Waits until `count` database sessions are waiting for a lock that the session `pid` holds (nothing is timed). */
export async function waitForBlockedBy(dataSource: DataSource, pid: number, count: number, what: string): Promise<void> {
  await waitFor(
    async () =>
      (await dataSource.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [pid]))[0].n >= count,
    { timeoutMs: 30_000, what },
  );
}
