import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { Client } from 'pg';
import { uniqueName } from '../support/test-app';

const ROOT = path.resolve(__dirname, '../..');

/** `npm run migration:run` against DATABASE_URL: applies every checked-in migration once, then nothing. */
describe('migration:run', () => {
  it('migrates an empty database and is a no-op the second time', async () => {
    const base = new URL(process.env.TEST_DATABASE_URL!);
    const name = uniqueName('migrate').replace(/-/g, '_');
    const admin = new Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const url = new URL(base.toString());
      url.pathname = `/${name}`;
      const run = () =>
        execFileSync(process.execPath, ['dist/src/database/cli/run-migrations.js'], {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: url.toString() },
          encoding: 'utf8',
        });
      expect(run()).toMatch(/^Applied: CreatePlatformTables\d+, CreateEvidenceTables\d+/);
      expect(run().trim()).toBe('No pending migrations');
      const db = new Client({ connectionString: url.toString() });
      await db.connect();
      const tables = await db.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
      await db.end();
      expect(tables.rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining(['organizations', 'api_keys', 'flows', 'trails', 'trail_moments', 'attestations', 'evidence_blobs']),
      );
    } finally {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
