import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every tenant table gets `org_id` in its primary key and in each unique key, and every foreign key between
 * tenant tables carries `org_id` on both sides, so the tables can be distributed by `org_id` (Citus) without a
 * schema change then (docs/scaling.md). `test/scaling/tenant-keys.e2e-spec.ts` holds every table to it.
 *
 * `org_id` is appended as the last key column: the ids were already unique (uuids, sequences), and a flow's or
 * trail's children now must name the same org as their parent (the composite foreign keys), so each key
 * constrains exactly what it did, and every query that finds rows by the old key columns still uses the index
 * as a prefix. `trail_moments` gains `org_id` (copied from its trail), and a service account's API key the
 * account's org (`service_account_org_id`): `api_keys` itself is not a tenant table, since a person's key is
 * global, found by its hash before any org is known.
 *
 * Old replicas insert moments without an org and name the old unique key of `trails` in `ON CONFLICT`: run this
 * release's migration with the older replicas stopped. Rebuilding keys rewrites indexes and checks each foreign
 * key once over its table: expect it to take about as long as a reindex of those tables.
 */
const REKEYED: { table: string; pkey: string; columns: string }[] = [
  { table: 'service_accounts', pkey: 'service_accounts_pkey', columns: 'id' },
  { table: 'flows', pkey: 'flows_pkey', columns: 'id' },
  { table: 'flow_templates', pkey: 'flow_templates_pkey', columns: 'id' },
  { table: 'trails', pkey: 'trails_pkey', columns: 'id' },
  { table: 'trail_moments', pkey: 'trail_moments_pkey', columns: 'trail_id, moment_number' },
  { table: 'artifacts', pkey: 'artifacts_pkey', columns: 'id' },
  { table: 'attestations', pkey: 'attestations_pkey', columns: 'id' },
  { table: 'repos', pkey: 'repos_pkey', columns: 'id' },
  { table: 'environments', pkey: 'environments_pkey', columns: 'id' },
  { table: 'actions', pkey: 'actions_pkey', columns: 'id' },
  { table: 'action_deliveries', pkey: 'action_deliveries_pkey', columns: 'id' },
  { table: 'action_delivery_attempts', pkey: 'action_delivery_attempts_pkey', columns: 'id' },
  { table: 'outbox_events', pkey: 'outbox_events_pkey', columns: 'id' },
];

const UNIQUE: { table: string; name: string; columns: string }[] = [
  { table: 'flow_templates', name: 'flow_templates_flow_version_key', columns: 'flow_id, version' },
  { table: 'trails', name: 'trails_flow_name_key', columns: 'flow_id, name' },
  { table: 'trails', name: 'trails_id_flow_key', columns: 'id, flow_id' },
  { table: 'attestations', name: 'attestations_flow_seq_key', columns: 'flow_id, flow_seq' },
];

/** Foreign keys onto the re-keyed tables, before (`columns` -> `refColumns`) and after (both plus the org: `org`, else `org_id`). */
const FOREIGN: { table: string; name: string; columns: string; references: string; refColumns: string; cascade: boolean; org?: string }[] = [
  { table: 'api_keys', name: 'api_keys_service_account_id_fkey', columns: 'service_account_id', references: 'service_accounts', refColumns: 'id', cascade: true, org: 'service_account_org_id' },
  { table: 'flow_templates', name: 'flow_templates_flow_id_fkey', columns: 'flow_id', references: 'flows', refColumns: 'id', cascade: true },
  { table: 'trails', name: 'trails_flow_id_fkey', columns: 'flow_id', references: 'flows', refColumns: 'id', cascade: true },
  { table: 'artifacts', name: 'artifacts_flow_id_fkey', columns: 'flow_id', references: 'flows', refColumns: 'id', cascade: true },
  { table: 'flow_attestation_counters', name: 'flow_attestation_counters_flow_id_fkey', columns: 'flow_id', references: 'flows', refColumns: 'id', cascade: true },
  { table: 'trails', name: 'trails_template_id_fkey', columns: 'template_id', references: 'flow_templates', refColumns: 'id', cascade: false },
  { table: 'trail_moments', name: 'trail_moments_trail_id_fkey', columns: 'trail_id', references: 'trails', refColumns: 'id', cascade: true },
  { table: 'artifacts', name: 'artifacts_trail_id_fkey', columns: 'trail_id', references: 'trails', refColumns: 'id', cascade: true },
  { table: 'action_trail_status', name: 'action_trail_status_trail_id_fkey', columns: 'trail_id', references: 'trails', refColumns: 'id', cascade: true },
  { table: 'attestations', name: 'attestations_trail_flow_fkey', columns: 'trail_id, flow_id', references: 'trails', refColumns: 'id, flow_id', cascade: true },
  { table: 'environment_members', name: 'environment_members_logical_id_fkey', columns: 'logical_id', references: 'environments', refColumns: 'id', cascade: true },
  { table: 'environment_members', name: 'environment_members_member_id_fkey', columns: 'member_id', references: 'environments', refColumns: 'id', cascade: true },
  { table: 'environment_snapshots', name: 'environment_snapshots_environment_id_fkey', columns: 'environment_id', references: 'environments', refColumns: 'id', cascade: true },
  { table: 'environment_artifact_runs', name: 'environment_artifact_runs_environment_id_fkey', columns: 'environment_id', references: 'environments', refColumns: 'id', cascade: true },
  { table: 'action_deliveries', name: 'action_deliveries_action_id_fkey', columns: 'action_id', references: 'actions', refColumns: 'id', cascade: true },
  { table: 'action_delivery_attempts', name: 'action_delivery_attempts_action_id_fkey', columns: 'action_id', references: 'actions', refColumns: 'id', cascade: true },
  { table: 'action_delivery_attempts', name: 'action_delivery_attempts_delivery_id_fkey', columns: 'delivery_id', references: 'action_deliveries', refColumns: 'id', cascade: true },
];

const TABLES = [...new Set([...REKEYED.map((r) => r.table), ...FOREIGN.map((f) => f.table)])];
const onDelete = (cascade: boolean) => (cascade ? ' ON DELETE CASCADE' : '');

export class KeyTenantTablesByOrg1763778000000 implements MigrationInterface {
  name = 'KeyTenantTablesByOrg1763778000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL lock_timeout = '10s'`);
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(`LOCK TABLE ${TABLES.join(', ')} IN ACCESS EXCLUSIVE MODE`);
    for (const f of FOREIGN) await q.query(`ALTER TABLE ${f.table} DROP CONSTRAINT ${f.name}`);

    await q.query(`ALTER TABLE trail_moments ADD COLUMN org_id uuid`);
    await q.query(`UPDATE trail_moments m SET org_id = t.org_id FROM trails t WHERE t.id = m.trail_id`);
    await q.query(`ALTER TABLE trail_moments ALTER COLUMN org_id SET NOT NULL`);
    await q.query(`ALTER TABLE api_keys ADD COLUMN service_account_org_id uuid`);
    await q.query(
      `UPDATE api_keys k SET service_account_org_id = sa.org_id FROM service_accounts sa WHERE sa.id = k.service_account_id`,
    );
    await q.query(
      `ALTER TABLE api_keys ADD CONSTRAINT api_keys_service_account_org CHECK ((service_account_id IS NULL) = (service_account_org_id IS NULL))`,
    );

    for (const r of REKEYED) {
      await q.query(`ALTER TABLE ${r.table} DROP CONSTRAINT ${r.pkey}, ADD CONSTRAINT ${r.pkey} PRIMARY KEY (${r.columns}, org_id)`);
    }
    for (const u of UNIQUE) {
      await q.query(`ALTER TABLE ${u.table} DROP CONSTRAINT IF EXISTS ${u.name}`);
      await q.query(`DROP INDEX IF EXISTS ${u.name}`);
      await q.query(`ALTER TABLE ${u.table} ADD CONSTRAINT ${u.name} UNIQUE (${u.columns}, org_id)`);
    }
    for (const f of FOREIGN) {
      await q.query(
        `ALTER TABLE ${f.table} ADD CONSTRAINT ${f.name} FOREIGN KEY (${f.columns}, ${f.org ?? 'org_id'})
         REFERENCES ${f.references} (${f.refColumns}, org_id)${onDelete(f.cascade)}`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL lock_timeout = '10s'`);
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(`LOCK TABLE ${TABLES.join(', ')} IN ACCESS EXCLUSIVE MODE`);
    for (const f of FOREIGN) await q.query(`ALTER TABLE ${f.table} DROP CONSTRAINT ${f.name}`);
    for (const u of UNIQUE) {
      await q.query(`ALTER TABLE ${u.table} DROP CONSTRAINT ${u.name}`);
      // trails_id_flow_key was a unique index, the others constraints.
      await q.query(
        u.name === 'trails_id_flow_key'
          ? `CREATE UNIQUE INDEX ${u.name} ON ${u.table} (${u.columns})`
          : `ALTER TABLE ${u.table} ADD CONSTRAINT ${u.name} UNIQUE (${u.columns})`,
      );
    }
    for (const r of REKEYED) {
      await q.query(`ALTER TABLE ${r.table} DROP CONSTRAINT ${r.pkey}, ADD CONSTRAINT ${r.pkey} PRIMARY KEY (${r.columns})`);
    }
    for (const f of FOREIGN) {
      await q.query(
        `ALTER TABLE ${f.table} ADD CONSTRAINT ${f.name} FOREIGN KEY (${f.columns}) REFERENCES ${f.references} (${f.refColumns})${onDelete(f.cascade)}`,
      );
    }
    await q.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_service_account_org, DROP COLUMN service_account_org_id`);
    await q.query(`ALTER TABLE trail_moments DROP COLUMN org_id`);
  }
}
