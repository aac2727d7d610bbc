import { DataSource, EntityManager } from 'typeorm';

/**
 * Runs a named prepared statement on the pg pool behind TypeORM (autocommit): a hot statement is parsed and
 * planned once per connection instead of on every request. Falls back to a plain query when the driver has
 * no pool (never in production).
 */
export async function preparedQuery<T>(dataSource: DataSource, name: string, text: string, values: unknown[]): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master?: { query: (config: object) => Promise<{ rows: T[] }> } }).master;
  if (!pool) return dataSource.query(text, values);
  const result = await pool.query({ name, text, values });
  return result.rows;
}

/**
 * The same inside a transaction: the named prepared statement runs on the transaction's own connection (the
 * query runner's pg client), so it commits or rolls back with the rest of the transaction.
 */
export async function preparedQueryIn<T>(manager: EntityManager, name: string, text: string, values: unknown[]): Promise<T[]> {
  const runner = manager.queryRunner;
  const client = runner && ((await runner.connect()) as { query?: (config: object) => Promise<{ rows: T[] }> });
  if (!client?.query) return manager.query(text, values);
  const result = await client.query({ name, text, values });
  return result.rows;
}
