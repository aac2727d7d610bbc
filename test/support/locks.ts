import { DataSource } from 'typeorm';
import { waitFor } from './wait';

/** How many database sessions are waiting for a lock that the session `pid` holds. */
export async function sessionsWaitingOn(dataSource: DataSource, pid: number): Promise<number> {
  return (await dataSource.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [pid]))[0].n;
}

/** How many database sessions are waiting for a lock, whoever holds it. */
export async function sessionsWaiting(dataSource: DataSource): Promise<number> {
  return (await dataSource.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE cardinality(pg_blocking_pids(pid)) > 0`))[0].n;
}

/** Waits until `count` database sessions are waiting for a lock that the session `pid` holds (nothing is timed). */
export async function waitForBlockedBy(dataSource: DataSource, pid: number, count: number, what: string): Promise<void> {
  await waitFor(async () => (await sessionsWaitingOn(dataSource, pid)) >= count, { timeoutMs: 30_000, what });
}
