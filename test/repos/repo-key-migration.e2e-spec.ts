import { randomBytes, randomUUID } from 'node:crypto';
import { QueryRunner } from 'typeorm';
import { KeyReposByProvider1764210000000 } from '../../src/database/migrations/1764210000000-KeyReposByProvider';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * KeyReposByProvider over the rows an older version left: run on a `repos` table as the first migration made it,
 * in a schema of its own inside a transaction that is rolled back, so the shared test database is untouched.
 */
describe('migration KeyReposByProvider', () => {
  let t: TestApp;
  let q: QueryRunner;
  const migration = new KeyReposByProvider1764210000000();
  const org1 = randomUUID();
  const org2 = randomUUID();

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    q = t.dataSource.createQueryRunner();
    await q.startTransaction();
    const schema = `repo_key_${randomBytes(4).toString('hex')}`;
    await q.query(`CREATE SCHEMA ${schema}`);
    await q.query(`SET LOCAL search_path TO ${schema}`);
    await q.query(`
      CREATE TABLE repos (
        id uuid PRIMARY KEY, org_id uuid NOT NULL, external_id text NOT NULL, name text NOT NULL, provider text,
        CONSTRAINT repos_org_external_key UNIQUE (org_id, external_id))`);
  });
  afterEach(async () => {
    await q.rollbackTransaction();
    await q.release();
  });

  const insert = (org: string, externalId: string, provider: string | null) =>
    q.query(`INSERT INTO repos (id, org_id, external_id, name, provider) VALUES ($1, $2, $3, $4, $5)`, [randomUUID(), org, externalId, `n-${externalId}`, provider]);
  /** Whether an insert is refused as a duplicate key (under a savepoint, so the transaction goes on). */
  const refused = async (org: string, externalId: string, provider: string | null) => {
    await q.query(`SAVEPOINT probe`);
    try {
      await insert(org, externalId, provider);
      await q.query(`RELEASE SAVEPOINT probe`);
      return false;
    } catch (err) {
      await q.query(`ROLLBACK TO SAVEPOINT probe`);
      if ((err as { driverError?: { code?: string } }).driverError?.code !== '23505') throw err;
      return true;
    }
  };

  it('keeps every existing repo, stores an empty provider as none, and keys repos by (org, provider, external id)', async () => {
    await insert(org1, '101', 'github');
    await insert(org1, '102', '');
    await insert(org1, '103', null);
    await insert(org2, '101', 'gitlab');

    await migration.up(q);

    expect(await q.query(`SELECT org_id, external_id, provider FROM repos ORDER BY org_id = $1 DESC, external_id`, [org1])).toEqual([
      { org_id: org1, external_id: '101', provider: 'github' },
      { org_id: org1, external_id: '102', provider: null },
      { org_id: org1, external_id: '103', provider: null },
      { org_id: org2, external_id: '101', provider: 'gitlab' },
    ]);
    // the same provider id from another provider is another repo; a provider-less id is still one repo
    expect(await refused(org1, '101', 'gitlab')).toBe(false);
    expect(await refused(org1, '101', 'github')).toBe(true);
    expect(await refused(org1, '103', null)).toBe(true);
    expect(await refused(org1, '102', null)).toBe(true);
  });

  it('down refuses, naming the clash, while repos of two providers share an id; otherwise restores the old key', async () => {
    await insert(org1, '101', 'github');
    await migration.up(q);
    await insert(org1, '101', 'gitlab');
    await q.query(`SAVEPOINT down`);
    await expect(migration.down(q)).rejects.toThrow(`org ${org1} has repos of several providers with id '101'`);
    await q.query(`ROLLBACK TO SAVEPOINT down`);
    await q.query(`DELETE FROM repos WHERE provider = 'gitlab'`);
    await migration.down(q);
    expect(await refused(org1, '101', 'gitlab')).toBe(true);
  });
});
