import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../../../database/prepared-query';
import { ident, placeholder, Sql, sql, SqlIdent, trusted } from '../../../database/sql';
import { MomentSql } from '../../ledger/ledger.module';
import { OutboxSql } from '../../outbox/outbox.module';
import { StagedEvidence } from '../upload/staged-evidence';
import { AttestationRow } from './attestation.reader';
import { BLOB_TUPLE, BlobRow, evidenceBlobInsertSql } from './evidence.store';

/**
 * One attestation row as the write path builds it (one per slot filled). `flow_id`, `trail_id` and
 * `moment_number` are set once the trail is locked; `flow_seq` and `created_at` are given by the statement
 * that inserts the row, under the flow's counter.
 */
export interface AttestationWriteRow
  extends Omit<AttestationRow, 'org_name' | 'flow_name' | 'trail_name' | 'flow_seq' | 'created_at' | 'evidence_size' | 'external_urls'> {
  org_id: string;
  flow_id: string;
  trail_id: string;
  external_urls: unknown;
  evidence_size: number | null;
}

/** An attestation of a group, addressed by names (the one-statement path resolves them). */
export interface GroupRow extends AttestationWriteRow {
  flow_name: string;
  trail_name: string;
  /** 1-based position of this attestation among the group's attestations of the same trail */
  pos: number;
  /** The first row of an attestation (one moment per attestation, whatever its number of slots). */
  first_slot: boolean;
}

/**
 * The columns every write statement takes from the rows it is sent, with their SQL types: the one definition
 * both insert statements are built from. (`flow_seq` and `created_at` come from the flow counter; `flow_id`,
 * `trail_id` and `moment_number` from the row in the prepared path and from the ledger in the group path.)
 */
const ROW_COLUMNS: ReadonlyArray<readonly [keyof AttestationWriteRow, string]> = [
  ['id', 'uuid'],
  ['org_id', 'uuid'],
  ['name', 'text'],
  ['artifact_name', 'text'],
  ['artifact_fingerprint', 'text'],
  ['attestation_type', 'text'],
  ['schema_version', 'int'],
  ['is_compliant', 'boolean'],
  ['description', 'text'],
  ['origin_url', 'text'],
  ['external_urls', 'jsonb'],
  ['annotations', 'jsonb'],
  ['user_data', 'jsonb'],
  ['git_commit_info', 'jsonb'],
  ['repo_info', 'jsonb'],
  ['data', 'jsonb'],
  ['evidence_sha256', 'text'],
  ['evidence_filename', 'text'],
  ['evidence_size', 'bigint'],
  ['evidence_content_type', 'text'],
  ['reported_by', 'text'],
];

/** `jsonb_to_recordset(...) AS alias(<this>)`: the row columns plus the statement's own. */
function recordsetColumns(own: ReadonlyArray<readonly [string, string]>): string {
  return [...own, ...ROW_COLUMNS].map(([name, type]) => `${name} ${type}`).join(', ');
}

/** The INSERT of attestation rows from `from`, each row's placement given as SQL expressions. */
function insertRowsSql(row: string, placement: { flowId: string; trailId: string; flowSeq: string; momentNumber: string; createdAt: string }, from: string, orderBy: string): string {
  const columns = ['flow_id', 'trail_id', 'flow_seq', 'moment_number', 'created_at', ...ROW_COLUMNS.map(([name]) => name)];
  const values = [
    placement.flowId,
    placement.trailId,
    placement.flowSeq,
    placement.momentNumber,
    placement.createdAt,
    ...ROW_COLUMNS.map(([name]) => (name === 'evidence_sha256' ? `decode(${row}.evidence_sha256, 'hex')` : `${row}.${name}`)),
  ];
  return `INSERT INTO attestations (${columns.join(', ')})
       SELECT ${values.join(', ')}
       FROM ${from}
       ORDER BY ${orderBy}`;
}

/**
 * How the one-statement group treats events: `{ withEvents: true }` appends the event of every row whose org
 * subscribes (checked row by row in SQL); `{ unchangedSince: version }` appends none, and writes nothing at all
 * unless the subscriptions are still at that version (the caller's copy said no org of the group subscribes).
 */
export type GroupEvents = { withEvents: true } | { unchangedSince: string };

/** The outbox event of each stored attestation row (one per slot filled). */
export const ATTESTATION_RECORDED = 'attestation.recorded';

/**
 * The `attestation.recorded` events of the rows of `from` (alias `row`, with the row columns, `moment_number`
 * and `ord`), appended in `ord` order when `wanted` holds: the one definition of the event both write
 * statements use, so every write path raises the same events. Subject `{flow, trail}`; payload: the row's id,
 * name, type, verdict, slot, moment and reporter.
 */
function attestationEventsSql(row: SqlIdent, names: { flow: Sql; trail: Sql }, from: Sql, wanted: Sql): Sql {
  return OutboxSql.insert(
    sql`SELECT ${row}.org_id, ${trusted(`'${ATTESTATION_RECORDED}'`)}, jsonb_build_object('flow', ${names.flow}, 'trail', ${names.trail}),
       jsonb_build_object('attestation_id', ${row}.id, 'attestation_name', ${row}.name, 'attestation_type', ${row}.attestation_type,
         'is_compliant', ${row}.is_compliant, 'artifact_name', ${row}.artifact_name, 'artifact_fingerprint', ${row}.artifact_fingerprint,
         'moment_number', ${row}.moment_number, 'reported_by', ${row}.reported_by)
     FROM ${from} WHERE ${wanted} ORDER BY ${row}.ord`,
  );
}

/**
 * The flow counters: `n` more attestations for each flow of `perFlow` (columns org_id, flow_id, n). Returns
 * flow_id, attestation_count (after) and last_attested_at, which never goes back in time within a flow (so
 * created_at follows flow_seq). A flow's first attestation creates its counter row.
 */
function counterSql(perFlow: string): string {
  return `INSERT INTO flow_attestation_counters AS fc (org_id, flow_id, attestation_count, last_attested_at)
       SELECT p.org_id, p.flow_id, p.n, clock_timestamp() FROM ${perFlow} p
       ON CONFLICT (org_id, flow_id) DO UPDATE
       SET attestation_count = fc.attestation_count + EXCLUDED.attestation_count,
           last_attested_at = GREATEST(EXCLUDED.last_attested_at, fc.last_attested_at)
       RETURNING fc.flow_id, fc.attestation_count, fc.last_attested_at`;
}

/** `AttestationRepository.insert`'s statement ($1 org, $2 flow, $3 count, $4 the rows as JSON), built once. */
const INSERT_PLACED = ((): string => {
  const columns = recordsetColumns([['ord', 'int'], ['flow_id', 'uuid'], ['trail_id', 'uuid'], ['moment_number', 'int']]);
  return `WITH p AS (
         SELECT $1::uuid AS org_id, $2::uuid AS flow_id, $3::int AS n
       ), c AS (
         ${counterSql('p')}
       ), recorded AS (
         ${attestationEventsSql(
           ident('r'),
           { flow: sql`f.name`, trail: sql`t.name` },
           trusted(`jsonb_to_recordset($4::jsonb) AS r(${columns}) JOIN trails t ON t.id = r.trail_id JOIN flows f ON f.id = r.flow_id`),
           OutboxSql.wanted(placeholder(1, 'uuid'), ATTESTATION_RECORDED),
         ).text}
       )
       ${insertRowsSql(
         'r',
         { flowId: 'r.flow_id', trailId: 'r.trail_id', flowSeq: 'c.attestation_count - $3 + r.ord', momentNumber: 'r.moment_number', createdAt: 'c.last_attested_at' },
         `c, jsonb_to_recordset($4::jsonb) AS r(${columns})`,
         'r.ord',
       )}`;
})();

/** The group statement's pieces that never vary, built once. */
const RU = ident('ru');
const GROUP_EVENTS_CTE = `, recorded AS (
         ${attestationEventsSql(RU, { flow: sql`ru.flow_name`, trail: sql`ru.trail_name` }, sql`ru`, OutboxSql.wanted(sql`ru.org_id`, ATTESTATION_RECORDED)).text}
       )`;
const GROUP_ADVANCE = MomentSql.advance(ident('locked'), {
  carry: [ident('org_id'), ident('flow_name'), ident('trail_name')],
  alsoFrom: ident('ok'),
  where: sql`ok.ok`,
}).text;
const GROUP_MOMENT_NUMBER = MomentSql.number(ident('u'), sql`r.pos`).text;
const GROUP_MOMENTS = MomentSql.insert(
  sql`SELECT ru.org_id, ru.trail_id, ru.moment_number, ru.moment_at, 'attestation', ru.template_id, ru.id FROM ru WHERE ru.first_slot`,
).text;
const GROUP_ROW_COLUMNS = recordsetColumns([
  ['ord', 'int'],
  ['flow_name', 'text'],
  ['trail_name', 'text'],
  ['pos', 'int'],
  ['first_slot', 'boolean'],
]);
const GROUP_INSERT_ROWS = insertRowsSql(
  'ru',
  {
    flowId: 'ru.flow_id',
    trailId: 'ru.trail_id',
    flowSeq: 'c.attestation_count - p.n + row_number() OVER (PARTITION BY c.flow_id ORDER BY ru.ord)',
    momentNumber: 'ru.moment_number',
    createdAt: 'c.last_attested_at',
  },
  'ru JOIN c ON c.flow_id = ru.flow_id JOIN per_flow p ON p.flow_id = ru.flow_id',
  'ru.ord',
);

/**
 * The flows are taken FOR KEY SHARE with their trails, before the counters: the archived-flow trigger takes
 * them anyway (LockFlowsAgainstArchive), but only at the end of the statement, which would be after the
 * counters, while a rename holds its flow (FOR UPDATE: its name is a key) and then waits for the counter.
 *
 * The one-statement group's name and text for a mode and a number of blobs: $1..$5 the trails and rows, then
 * three parameters per blob, then (without events) the subscriptions' version. Each variant is built once
 * per process (there are as many as prepared statements the pool keeps).
 */
const groupStatements = new Map<string, { name: string; text: string }>();
function groupStatement(withEvents: boolean, blobCount: number): { name: string; text: string } {
  const name = `veritrail_attestation_group_v5_${withEvents ? 'events' : 'quiet'}_b${blobCount}`;
  const cached = groupStatements.get(name);
  if (cached) return cached;
  const blobTuples: string[] = [];
  for (let i = 0; i < blobCount; i++) blobTuples.push(BLOB_TUPLE(6 + 3 * i));
  const blobCte = blobTuples.length ? `, b AS (${evidenceBlobInsertSql(blobTuples, 'ok', 'ok.ok')} RETURNING sha256)` : '';
  // Either the events CTE (rows of subscribed orgs get their event), or none at all, on condition that the
  // subscriptions are still those the caller's copy says nobody in the group wants events from.
  let okCondition = 'count(*) = cardinality($3::text[])';
  if (!withEvents) okCondition += ` AND ${OutboxSql.unchangedSince(placeholder(6 + 3 * blobCount, 'bigint')).text}`;
  const text = `WITH k AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[]) AS k(org_id, flow_name, trail_name, n)
       ), locked AS (
         SELECT t.id AS trail_id, k.org_id, k.flow_name, k.trail_name, k.n
         FROM k
         JOIN flows f ON f.org_id = k.org_id AND f.name = k.flow_name
         JOIN trails t ON t.flow_id = f.id AND t.name = k.trail_name
         ORDER BY t.id
         FOR UPDATE OF t FOR KEY SHARE OF f
       ), ok AS (
         SELECT ${okCondition} AS ok FROM locked
       ), u AS (
         ${GROUP_ADVANCE}
       ), r AS (
         SELECT * FROM jsonb_to_recordset($5::jsonb) AS r(${GROUP_ROW_COLUMNS})
       ), ru AS (
         SELECT r.*, u.trail_id, u.flow_id, ${GROUP_MOMENT_NUMBER} AS moment_number, u.template_id, u.moment_at
         FROM r JOIN u ON u.org_id = r.org_id AND u.flow_name = r.flow_name AND u.trail_name = r.trail_name
       ), m AS (
         ${GROUP_MOMENTS}
         RETURNING subject_id
       ), per_flow AS (
         -- the flow counters are taken last (after the moments), so they are held only for the insert and the commit
         SELECT ru.org_id, ru.flow_id, count(*)::int AS n FROM ru, (SELECT count(*) FROM m) AS after_moments GROUP BY ru.org_id, ru.flow_id
       ), c AS (
         ${counterSql('per_flow')}
       )${withEvents ? GROUP_EVENTS_CTE : ''}${blobCte}
       ${GROUP_INSERT_ROWS}
       RETURNING id, flow_id, trail_id, moment_number`;
  const statement = { name, text };
  groupStatements.set(name, statement);
  return statement;
}

/**
 * Owns the tables `attestations` and `flow_attestation_counters`. Two ways in, with the same effects:
 * `insert` (in the caller's transaction, rows already placed in their trails) and `insertGroupAtOnce` (one
 * statement in autocommit that also records the trails' moments and stores small blobs).
 */
@Injectable()
export class AttestationRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Allocates the next flow_seq numbers (dense: the counter row stays locked until commit) and inserts the
   * rows in that order, in one statement, with their `attestation.recorded` events when the org subscribes to
   * them (a one-time check: the rows are all of one org). Every row must belong to the same flow.
   */
  async insert(manager: EntityManager, rows: AttestationWriteRow[]): Promise<void> {
    if (!rows.length) return;
    const flowId = rows[0].flow_id;
    if (rows.some((r) => r.flow_id !== flowId)) throw new Error('AttestationRepository.insert: attestations of several flows');
    const ordered = rows.map((row, i) => ({ ...row, ord: i + 1 }));
    await manager.query(
      INSERT_PLACED,
      [rows[0].org_id, flowId, rows.length, JSON.stringify(ordered)],
    );
  }

  /**
   * Locks the flow's counter row until the caller's transaction ends (creating it at 0 if the flow has none), so
   * that attestation writes of the flow in progress commit first and later ones wait (a flow rename: their
   * `created_at`, stamped under this row, then falls on one side of the rename's time for good).
   */
  async holdFlowCounter(manager: EntityManager, orgId: string, flowId: string): Promise<void> {
    await manager.query(
      `INSERT INTO flow_attestation_counters AS fc (org_id, flow_id, attestation_count, last_attested_at)
       VALUES ($1, $2, 0, '-infinity') ON CONFLICT (org_id, flow_id) DO UPDATE SET attestation_count = fc.attestation_count`,
      [orgId, flowId],
    );
  }

  /**
   * A whole group in one statement, outside any explicit transaction: locks the trails (id order), records one
   * moment per attestation through the ledger's MomentSql, stores the blobs, takes each flow's counter,
   * inserts the rows with dense per-flow flow_seq numbers and appends their `attestation.recorded` events for
   * the orgs that subscribe to them (OutboxSql; see GroupEvents). Every flow and trail must exist: otherwise
   * nothing is written and the answer is an empty list (as it is when `events.unchangedSince` is no longer
   * the subscriptions' version). Rows come back as (id, flow_id, trail_id, moment_number).
   */
  async insertGroupAtOnce(
    rows: GroupRow[],
    blobs: BlobRow[],
    events: GroupEvents,
  ): Promise<Array<{ id: string; flow_id: string; trail_id: string; moment_number: number }>> {
    // One entry per distinct trail (org, flow, trail name) with the number of attestations it takes.
    const trails = new Map<string, { org_id: string; flow_name: string; trail_name: string; n: number }>();
    for (const row of rows) {
      if (!row.first_slot) continue;
      const key = `${row.org_id}\u0000${row.flow_name}\u0000${row.trail_name}`;
      const entry = trails.get(key);
      if (entry) entry.n += 1;
      else trails.set(key, { org_id: row.org_id, flow_name: row.flow_name, trail_name: row.trail_name, n: 1 });
    }
    const keys = [...trails.values()];
    const values: unknown[] = [
      keys.map((t) => t.org_id),
      keys.map((t) => t.flow_name),
      keys.map((t) => t.trail_name),
      keys.map((t) => t.n),
      JSON.stringify(rows.map((row, i) => ({ ...row, ord: i + 1 }))),
    ];
    for (const blob of blobs) values.push(blob.sha256, blob.size, blob.content);
    if ('unchangedSince' in events) values.push(events.unchangedSince);
    const statement = groupStatement('withEvents' in events, blobs.length);
    return preparedQuery(
      this.dataSource,
      statement.name,
      statement.text,
      values,
    );
  }
}
