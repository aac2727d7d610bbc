import { Client } from 'pg';
import { loadConfig } from '../../src/common/config/app-config';
import { openDataSource, runMigrations } from '../../src/database/data-source';
import { postGeneric, reportArtifact, FP } from '../support/attestation-helpers';
import { envApi, pod, digest } from '../support/env-helpers';
import { bearer, createOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { evidenceClient, TEMPLATE } from '../support/trail-helpers';

/**
 * The path to distributing tenant tables by `org_id` (docs/scaling.md) stays open only if every tenant table's
 * primary key and every unique constraint or unique index includes `org_id`: a distributed table can enforce
 * uniqueness only within one shard, i.e. on keys that contain the distribution column.
 */
const NOT_TENANT: Record<string, string> = {
  organizations: 'the tenants themselves: a small reference table, copied to every node',
  users: 'global people keyed by e-mail; one user is a member of many orgs (reference table)',
  schema_migrations: "TypeORM's record of applied migrations",
  outbox_subscription_version: 'one row (id = 1): the version of all subscriptions, read by every process',
  api_keys: "global: a person's key acts in each of their orgs and is found by its hash before any org is known (a service account's key names its org in service_account_org_id)",
  evidence_blobs: 'content-addressed attachment bytes, stored once whichever org sends them; a sharded deployment keeps attachments in the object store (docs/scaling.md)',
  log_signing_keys: "the service's checkpoint signing keys: one key signs every org's log (a reference table)",
  log_pending:
    "the evidence log's queue: each row lives from its record's commit to the sequencer's next round (a quarter of a second), has org_id and no index on purpose (the sequencer drains it whole); sharded, each shard drains its own",
  log_cursors:
    "the sequencer's position in each stream of records that are their own queue (one row per flow, keyed by the flow's globally unique id); sharded, each shard keeps the positions of its own flows",
  web_sessions: "global, like api_keys: a web session stands for a person's key, which acts in each of their orgs; found by its token's hash before any org is known",
};
/** Schemas that are not the service's tables: pg-boss keeps its queue in its own schema. */
const OTHER_SCHEMAS = ['pgboss'];
/**
 * Foreign keys from a non-tenant table into a tenant one, which a sharded database cannot keep (a table copied to
 * every node cannot point into one shard): what to do instead is in docs/scaling.md.
 */
const INTO_TENANT_TABLES: Record<string, string> = {
  api_keys_service_account_id_fkey: "a service account's keys go with it; sharded, the account's delete deletes them",
};

describe('tenant tables are keyed by org_id (the way to sharding by org stays open)', () => {
  let client: Client;

  beforeAll(async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const dataSource = await openDataSource(url, loadConfig({ DATABASE_URL: url, ADMIN_TOKEN: 'x'.repeat(16) }).database);
    await runMigrations(dataSource);
    await dataSource.destroy();
    client = new Client({ connectionString: url });
    await client.connect();
  });
  afterAll(() => client.end());

  async function tables(): Promise<{ schema: string; name: string }[]> {
    const { rows } = await client.query(
      `SELECT n.nspname AS schema, c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
        ORDER BY 1, 2`,
    );
    return rows;
  }

  it('knows every table: each is a tenant table, or listed with the reason it is not', async () => {
    const all = await tables();
    expect(all.filter((t) => t.schema !== 'public' && !OTHER_SCHEMAS.includes(t.schema))).toEqual([]);
    const names = all.filter((t) => t.schema === 'public').map((t) => t.name);
    // Every listed exception still exists, so the list cannot go stale and hide a renamed table.
    expect(Object.keys(NOT_TENANT).filter((n) => !names.includes(n))).toEqual([]);
    expect(names.length).toBeGreaterThan(Object.keys(NOT_TENANT).length + 20);
  });

  it('gives every tenant table an org_id NOT NULL, a primary key with org_id, and org_id in each unique index', async () => {
    const { rows } = await client.query(
      `SELECT c.relname AS table_name,
              EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'org_id' AND a.attnotnull AND NOT a.attisdropped) AS has_org_id,
              (SELECT json_agg(json_build_object('index', i.relname, 'primary', x.indisprimary,
                        'columns', (SELECT array_agg(a.attname ORDER BY k.ord) FROM unnest(x.indkey) WITH ORDINALITY k(attnum, ord)
                                    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum)))
                 FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
                WHERE x.indrelid = c.oid AND (x.indisunique OR x.indisprimary)) AS unique_indexes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
    );
    const problems: string[] = [];
    for (const row of rows) {
      if (row.table_name in NOT_TENANT) continue;
      const indexes: { index: string; primary: boolean; columns: string[] | null }[] = row.unique_indexes ?? [];
      if (!row.has_org_id) problems.push(`${row.table_name}: no org_id NOT NULL column`);
      if (!indexes.some((i) => i.primary)) problems.push(`${row.table_name}: no primary key`);
      for (const index of indexes) {
        // An expression index has a 0 in indkey (no column): it does not contain org_id either.
        if (!(index.columns ?? []).includes('org_id')) {
          problems.push(`${row.table_name}: ${index.primary ? 'primary key' : 'unique index'} ${index.index} (${(index.columns ?? []).join(', ')}) lacks org_id`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('carries org_id through every foreign key between tenant tables, on both sides', async () => {
    const { rows } = await client.query(
      `SELECT con.conname AS name, src.relname AS from_table, dst.relname AS to_table,
              (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS columns,
              (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum) AS ref_columns
         FROM pg_constraint con JOIN pg_class src ON src.oid = con.conrelid JOIN pg_class dst ON dst.oid = con.confrelid
        WHERE con.contype = 'f' AND con.connamespace = 'public'::regnamespace ORDER BY 1`,
    );
    const problems: string[] = [];
    for (const fk of rows) {
      if (fk.to_table in NOT_TENANT) continue;
      if (fk.from_table in NOT_TENANT) {
        if (!(fk.name in INTO_TENANT_TABLES)) problems.push(`${fk.name}: from ${fk.from_table} (not a tenant table) into ${fk.to_table}`);
        continue;
      }
      const at = (fk.ref_columns as string[]).indexOf('org_id');
      if (at < 0 || fk.columns[at] !== 'org_id') problems.push(`${fk.name}: ${fk.from_table}(${fk.columns}) -> ${fk.to_table}(${fk.ref_columns}) does not match org_id to org_id`);
    }
    expect(problems).toEqual([]);
    expect(rows.filter((fk) => fk.name in INTO_TENANT_TABLES).map((fk) => fk.name).sort()).toEqual(Object.keys(INTO_TENANT_TABLES).sort());
  });
});

/**
 * The migration that added org_id to the keys (KeyTenantTablesByOrg) keeps every row, and the service works the
 * same on both sides of it: data written before is read back alike after the migration is undone and applied
 * again, and writes that name the changed keys (ON CONFLICT on a trail's name, moments, service-account keys)
 * still work.
 */
describe('re-keying by org keeps the data and every query working', () => {
  it('undoes and reapplies the migration under data written through the API', async () => {
    const base = new URL(process.env.TEST_DATABASE_URL!);
    const name = uniqueName('rekey').replace(/-/g, '_');
    const admin = new Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(base.toString());
    url.pathname = `/${name}`;
    let t: TestApp | undefined;
    try {
      t = await startTestApp({}, { databaseUrl: url.toString() });
      const org = await createOrg(t);
      const as = bearer(org.adminKey);
      let c = evidenceClient(t, org);
      await c.createFlow('svc', TEMPLATE).expect(201);
      await c.beginTrail('svc', { name: 'release-1', description: 'first' }).expect(201);
      await reportArtifact(t, org.adminKey, org.name, 'svc', 'release-1', FP('a'), 'app');
      await postGeneric(t, org.adminKey, org.name, 'svc', 'release-1', { attestation_name: 'tests', is_compliant: true }, { content: Buffer.from('log'), filename: 'log.txt' }).expect(201);
      await t.http().post(`/api/v2/service-accounts/${org.name}`).set(...as).send({ name: 'ci', description: 'CI', privilege: 'member' }).expect(201);
      const saKey = (await t.http().post(`/api/v2/service-accounts/${org.name}/ci/api-keys`).set(...as).send({ description: 'ci' }).expect(201)).body.key;
      const env = envApi(t, org);
      await env.create({ name: 'prod', type: 'K8S', description: 'p' }).expect(201);
      await env.report('prod', 'K8S', { artifacts: [pod('web', { app: digest('a') })] }).expect(201);
      await t.http().put(`/api/v2/actions/${org.name}/flows`).set(...as).send({
        name: 'notify', flows: ['svc'], triggers: ['ON_ATTESTATION'], targets: [{ type: 'WEBHOOK', webhook: 'https://93.184.216.34/hook' }],
      }).expect(201);
      const trail = async () => (await c.getTrail('svc', 'release-1').expect(200)).body;
      const before = await trail();
      const rowCounts = async (app: TestApp) => {
        const tables: { table_name: string }[] = await app.dataSource.query(
          `SELECT table_name FROM information_schema.tables
            WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations' ORDER BY 1`,
        );
        const result: Record<string, number> = {};
        for (const { table_name } of tables) result[table_name] = (await app.dataSource.query(`SELECT count(*)::int AS n FROM ${table_name}`))[0].n;
        return result;
      };
      const rowsBefore = await rowCounts(t);
      expect(rowsBefore).toEqual(
        expect.objectContaining({ flow_templates: 1, trail_moments: 3, artifacts: 1, attestations: 1, environment_snapshots: 1, actions: 1 }),
      );
      await t.close();
      t = undefined;

      const ds = await openDataSource(url.toString(), loadConfig({ DATABASE_URL: url.toString(), ADMIN_TOKEN: 'x'.repeat(16) }).database);
      try {
        // Undo the migrations that came after the re-keying (each has its down), then the re-keying itself.
        for (;;) {
          const [last] = await ds.query(`SELECT name FROM schema_migrations ORDER BY timestamp DESC LIMIT 1`);
          await ds.undoLastMigration({ transaction: 'each' });
          if (last.name === 'KeyTenantTablesByOrg1763778000000') break;
        }
        const key = await ds.query(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'trails_pkey'`);
        expect(key).toEqual([{ def: 'PRIMARY KEY (id)' }]);
      } finally {
        await ds.destroy();
      }

      t = await startTestApp({}, { databaseUrl: url.toString() });
      c = evidenceClient(t, org);
      const key = await t.dataSource.query(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'trails_pkey'`);
      expect(key).toEqual([{ def: 'PRIMARY KEY (id, org_id)' }]);
      // The environment event log, the evidence log (with its queue) and the governance histories (control
      // versions, credential events) are dropped with their tables when their migrations are undone, and start
      // empty again; the backfill migrations queue what they find when reapplied.
      const emptied = {
        environment_events: 0, log_entries: 0, log_subtrees: 0, log_checkpoints: 0, log_pending: 0, log_cursors: 0,
        control_versions: 0, credential_events: 0,
      };
      expect({ ...(await rowCounts(t)), ...emptied }).toEqual({ ...rowsBefore, ...emptied });
      expect(await trail()).toEqual(before);
      // Writes through the changed keys: a new trail and its moments, the same trail again (ON CONFLICT on its
      // name), a key issued before, a new service-account key, and the delete that cascades to an account's keys.
      await postGeneric(t, org.adminKey, org.name, 'svc', 'release-2', { attestation_name: 'tests', is_compliant: true }).expect(201);
      await c.beginTrail('svc', { name: 'release-2', description: 'again' }).expect(200);
      await c.beginTrail('svc', { name: 'release-3', description: 'new' }).expect(201);
      await t.http().get(`/api/v2/flows/${org.name}`).set(...bearer(saKey)).expect(200);
      await t.http().post(`/api/v2/service-accounts/${org.name}/ci/api-keys`).set(...as).send({ description: 'second' }).expect(201);
      await t.http().delete(`/api/v2/service-accounts/${org.name}/ci`).set(...as).set('Content-Type', 'application/json').send('null').expect(200);
      expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM api_keys WHERE service_account_id IS NOT NULL`))[0].n).toBe(0);
      await t.http().get(`/api/v2/flows/${org.name}`).set(...bearer(saKey)).expect(401);
      const moments = await t.dataSource.query(`SELECT count(*)::int AS n FROM trail_moments m JOIN trails t ON t.id = m.trail_id AND t.org_id = m.org_id`);
      expect(moments[0].n).toBe(rowsBefore.trail_moments + 4);
    } finally {
      await t?.close();
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
