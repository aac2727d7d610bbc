import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../ormconfig';

/** Arbitrary constant: serialises migrations when several replicas start at once. */
const MIGRATION_LOCK_KEY = 7_401_332_001;

export async function openDataSource(url: string): Promise<DataSource> {
  const dataSource = new DataSource(buildDataSourceOptions(url));
  await dataSource.initialize();
  return dataSource;
}

/** Runs pending migrations under an advisory lock, each in its own transaction. */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
