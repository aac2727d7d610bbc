import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DbProcess, startDbProcess } from './embedded-db-process';

/** One embedded PostgreSQL for the whole e2e run; each test file makes its own orgs, so they do not collide. */
export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-test-'));
  let db: DbProcess;
  try {
    db = await startDbProcess(dir);
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  process.env.TEST_DATABASE_URL = db.url;
  (globalThis as any).__veritrailDb = { db, dir };
}
