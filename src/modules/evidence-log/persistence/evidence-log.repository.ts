import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { alignedRanges, emptyRoot, foldAligned, nodeHash } from '../../../../libs/transparency/src';
import { nextTurn } from '../../../common/event-loop/next-turn';

/** A queued entry: its leaf built by the writer, or a reference its kind's renderer reads the record by. */
export type QueuedEntry = {
  orgId: string;
  kind: string;
  recordId: string;
  queuedAt: Date;
} & ({ leaf: string; leafHash: Buffer; ref: null } | { leaf: null; leafHash: null; ref: Record<string, unknown> });

/** An entry ready to be indexed (leaf built). */
export interface ReadyEntry {
  orgId: string;
  kind: string;
  recordId: string;
  leaf: string;
  leafHash: Buffer;
  queuedAt: Date | null;
}

export interface StoredEntry {
  index: number;
  leaf: string;
  leafHash: Buffer;
}

export interface StoredCheckpoint {
  size: number;
  root: Buffer;
  note: string;
}

export interface OrgToSign {
  orgId: string;
  orgName: string;
  size: number;
}

/** A record's key in the log (the one-entry-per-record constraint's expression; kinds have no '/'). */
export const recordKey = (orgId: string, kind: string, recordId: string): string => `${orgId}/${kind}/${recordId}`;

const log2 = (n: number): number => 31 - Math.clz32(n);

/**
 * Subtrees of 2^STORED_FROM leaves and more are stored as they fill; smaller ones are folded from the leaf
 * hashes when a proof needs them (at most 15 leaves read per step): one stored row per 16 entries, not per one.
 */
const STORED_FROM = 4;

/** Entries placed in the tree (rows and the subtrees they complete) between two turns of the event loop. */
const NODES_PER_TURN = 128;

/** Arbitrary constant: one sequencer at a time, whatever the number of processes. */
const SEQUENCER_LOCK = 7_262_026_025;

/**
 * The SQL of the evidence log: `log_pending` (the queue), `log_entries`, `log_subtrees` and `log_checkpoints`
 * (all three append-only, enforced by triggers). A complete aligned subtree `[start, start + 2^level)` of
 * level >= STORED_FROM is stored at (level, start); smaller ones are folded from the leaf hashes.
 */
@Injectable()
export class EvidenceLogRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Queues entries (leaf built, or a reference), in the writer's transaction (one statement). */
  async queue(
    manager: EntityManager,
    entries: Array<{ orgId: string; kind: string; recordId: string } & ({ leaf: string; leafHash: Buffer } | { ref: Record<string, unknown> })>,
  ): Promise<void> {
    if (!entries.length) return;
    await manager.query(
      `INSERT INTO log_pending (org_id, kind, record_id, leaf, leaf_hash, ref)
       SELECT org_id, kind, record_id, leaf, leaf_hash, ref
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::bytea[], $6::jsonb[]) WITH ORDINALITY AS e(org_id, kind, record_id, leaf, leaf_hash, ref, n)
       ORDER BY n`,
      [
        entries.map((e) => e.orgId),
        entries.map((e) => e.kind),
        entries.map((e) => e.recordId),
        entries.map((e) => ('leaf' in e ? e.leaf : null)),
        entries.map((e) => ('leaf' in e ? e.leafHash : null)),
        entries.map((e) => ('ref' in e ? JSON.stringify(e.ref) : null)),
      ],
    );
  }

  /** The sequencer lock in shared mode, for the caller's transaction (renames: see EvidenceLog.holdSequencing). */
  async holdSequencing(manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock_shared($1::bigint)`, [SEQUENCER_LOCK]);
  }

  /**
   * One sequencer round's transaction: takes the sequencer lock (or returns null at once if another process
   * holds it; with `wait`, waits for it), then runs `work` on the transaction. Everything `work` does commits together.
   */
  async asSequencer<T>(work: (manager: EntityManager) => Promise<T>, wait = false): Promise<T | null> {
    return this.dataSource.transaction(async (manager) => {
      if (wait) await manager.query(`SELECT pg_advisory_xact_lock($1::bigint)`, [SEQUENCER_LOCK]);
      const [{ got }]: Array<{ got: boolean }> = wait
        ? [{ got: true }]
        : await manager.query(`SELECT pg_try_advisory_xact_lock($1::bigint) AS got`, [SEQUENCER_LOCK]);
      if (!got) return null;
      return work(manager);
    });
  }

  /**
   * Takes up to `limit` queued entries out of the queue (in the sequencer's transaction: they come back if it
   * rolls back), in the order they were queued. Only committed rows are visible, so one drain is the set of
   * entries whose records committed before it, and drains follow each other: that is the log's order.
   */
  async drain(manager: EntityManager, limit: number): Promise<QueuedEntry[]> {
    const rows: Array<{ seq: string; org_id: string; kind: string; record_id: string; leaf: string | null; leaf_hash: Buffer | null; ref: Record<string, unknown> | null; queued_at: Date }> =
      await manager.query(
        `WITH taken AS (
           DELETE FROM log_pending WHERE ctid = ANY(ARRAY(SELECT ctid FROM log_pending ORDER BY seq LIMIT $1))
           RETURNING seq, org_id, kind, record_id, leaf, leaf_hash, ref, queued_at
         )
         SELECT * FROM taken`,
        [limit],
      );
    rows.sort((a, b) => Number(a.seq) - Number(b.seq));
    return rows.map((r) => ({ orgId: r.org_id, kind: r.kind, recordId: r.record_id, leaf: r.leaf, leafHash: r.leaf_hash, ref: r.ref, queuedAt: r.queued_at }) as QueuedEntry);
  }

  /**
   * The `org/kind/record id` keys of these that are in the log already (a record is logged once). Probes the
   * one-entry-per-record constraint's hash index (the expression is the constraint's).
   */
  async alreadyLogged(manager: EntityManager, entries: Array<{ orgId: string; kind: string; recordId: string }>): Promise<Set<string>> {
    if (!entries.length) return new Set();
    const rows: Array<{ key: string }> = await manager.query(
      `SELECT w.key FROM unnest($1::text[]) AS w(key)
       WHERE EXISTS (SELECT 1 FROM log_entries e WHERE (e.org_id::text || '/' || e.kind || '/' || e.record_id) = w.key)`,
      [entries.map((e) => recordKey(e.orgId, e.kind, e.recordId))],
    );
    return new Set(rows.map((r) => r.key));
  }

  /**
   * The latest time an entry of the first design (indexed by its writer, before the queue and the sources:
   * `queued_at` null) was logged, or null if there is none. Nothing writes such entries any more, so the answer
   * never changes; a record created after it cannot have been logged by that design.
   */
  async firstDesignLoggedUntil(manager: EntityManager): Promise<Date | null> {
    const [{ until }]: Array<{ until: Date | null }> = await manager.query(
      `SELECT max(integrated_at) AS until FROM log_entries WHERE queued_at IS NULL`,
    );
    return until;
  }

  /**
   * Indexes entries (in the sequencer's transaction, under its lock): each org's entries get the next indexes
   * of its log in the order given, and the subtrees they complete are written with them.
   */
  async integrate(manager: EntityManager, entries: ReadyEntry[]): Promise<void> {
    const byOrg = new Map<string, ReadyEntry[]>();
    for (const entry of entries) {
      const part = byOrg.get(entry.orgId);
      if (part) part.push(entry);
      else byOrg.set(entry.orgId, [entry]);
    }
    const rows: Array<{ org_id: string; idx: number; kind: string; record_id: string; leaf: string; leaf_hash: string; queued_at: Date | null }> = [];
    const subtrees = { org: [] as string[], level: [] as number[], start: [] as number[], hash: [] as Buffer[] };
    for (const [orgId, part] of byOrg) {
      const first = await this.sizeIn(manager, orgId);
      // The frontier: the complete subtrees of the tree as it is, the left siblings new leaves may complete.
      const known = await this.subtrees(manager, orgId, alignedRanges(0, first));
      for (let k = 0; k < part.length; k++) {
        if (k && k % NODES_PER_TURN === 0) await nextTurn();
        const entry = part[k];
        const i = first + k;
        rows.push({ org_id: orgId, idx: i, kind: entry.kind, record_id: entry.recordId, leaf: entry.leaf, leaf_hash: entry.leafHash.toString('hex'), queued_at: entry.queuedAt });
        known.set(`0/${i}`, entry.leafHash);
        for (let level = 1; (i + 1) % 2 ** level === 0; level++) {
          const start = i + 1 - 2 ** level;
          const half = 2 ** (level - 1);
          const left = known.get(`${level - 1}/${start}`);
          const right = known.get(`${level - 1}/${start + half}`);
          if (!left || !right) throw new Error(`evidence log of org ${orgId}: subtree ${level - 1}/${start} is missing`);
          const hash = nodeHash(left, right);
          known.set(`${level}/${start}`, hash);
          if (level < STORED_FROM) continue;
          subtrees.org.push(orgId);
          subtrees.level.push(level);
          subtrees.start.push(start);
          subtrees.hash.push(hash);
        }
      }
    }
    if (!rows.length) return;
    // One JSON text for the batch: serialized natively, where array parameters escape every leaf in JavaScript.
    await manager.query(
      `INSERT INTO log_entries (org_id, idx, kind, record_id, leaf, leaf_hash, queued_at)
       SELECT r.org_id, r.idx, r.kind, r.record_id, r.leaf, decode(r.leaf_hash, 'hex'), r.queued_at
       FROM json_to_recordset($1::json) AS r(org_id uuid, idx bigint, kind text, record_id text, leaf text, leaf_hash text, queued_at timestamptz)`,
      [JSON.stringify(rows)],
    );
    if (subtrees.org.length) {
      await manager.query(
        `INSERT INTO log_subtrees (org_id, level, start, hash) SELECT * FROM unnest($1::uuid[], $2::smallint[], $3::bigint[], $4::bytea[])`,
        [subtrees.org, subtrees.level, subtrees.start, subtrees.hash],
      );
    }
  }

  /** How long ago `at` was, in milliseconds, by the database's clock (the clock that stamped it). */
  async ageOf(manager: EntityManager, at: Date): Promise<number> {
    const [{ age }]: Array<{ age: number }> = await manager.query(`SELECT EXTRACT(EPOCH FROM clock_timestamp() - $1::timestamptz)::float8 * 1000 AS age`, [at]);
    return Math.max(0, Number(age));
  }

  /** The positions a source's streams are integrated up to. */
  async cursors(manager: EntityManager, kind: string): Promise<Array<{ stream: string; position: number }>> {
    const rows: Array<{ stream: string; position: string }> = await manager.query(`SELECT stream, position FROM log_cursors WHERE kind = $1`, [kind]);
    return rows.map((r) => ({ stream: r.stream, position: Number(r.position) }));
  }

  /** Moves a source's streams forward (in the sequencer's transaction, with the entries they integrated). */
  async advance(manager: EntityManager, kind: string, positions: Map<string, number>): Promise<void> {
    if (!positions.size) return;
    await manager.query(
      `INSERT INTO log_cursors (kind, stream, position) SELECT $1, * FROM unnest($2::text[], $3::bigint[])
       ON CONFLICT (kind, stream) DO UPDATE SET position = GREATEST(log_cursors.position, EXCLUDED.position)`,
      [kind, [...positions.keys()], [...positions.values()]],
    );
  }

  /** How many entries wait in the queue (all orgs). */
  async queueLength(): Promise<number> {
    const [{ n }]: Array<{ n: string }> = await this.dataSource.query(`SELECT count(*) AS n FROM log_pending`);
    return Number(n);
  }

  /**
   * Hashes of complete aligned subtrees by `level/start`: read from `log_subtrees` from level STORED_FROM up,
   * folded from the leaf hashes of `log_entries` below it (at most 2^STORED_FROM - 1 leaves each). One query.
   */
  private async subtrees(manager: EntityManager | DataSource, orgId: string, ranges: Array<{ start: number; end: number }>): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    if (!ranges.length) return found;
    const stored = ranges.filter((r) => log2(r.end - r.start) >= STORED_FROM);
    const folded = ranges.filter((r) => log2(r.end - r.start) < STORED_FROM);
    const leaves: number[] = [];
    for (const r of folded) for (let i = r.start; i < r.end; i++) leaves.push(i);
    const rows: Array<{ level: number; start: string; hash: Buffer }> = await manager.query(
      `SELECT s.level, s.start, s.hash FROM log_subtrees s
       JOIN unnest($2::smallint[], $3::bigint[]) AS w(level, start) ON s.level = w.level AND s.start = w.start
       WHERE s.org_id = $1
       UNION ALL
       SELECT -1, e.idx, e.leaf_hash FROM log_entries e
       WHERE e.org_id = $1 AND e.idx = ANY($4::bigint[])`,
      [orgId, stored.map((r) => log2(r.end - r.start)), stored.map((r) => r.start), leaves],
    );
    const leafHashes = new Map<number, Buffer>();
    for (const row of rows) {
      if (row.level === -1) leafHashes.set(Number(row.start), row.hash);
      else found.set(`${row.level}/${Number(row.start)}`, row.hash);
    }
    for (const r of folded) {
      let level: Buffer[] = [];
      for (let i = r.start; i < r.end; i++) {
        const hash = leafHashes.get(i);
        if (!hash) throw new Error(`evidence log of org ${orgId}: leaf ${i} is missing`);
        level.push(hash);
      }
      while (level.length > 1) {
        const up: Buffer[] = [];
        for (let i = 0; i < level.length; i += 2) up.push(nodeHash(level[i], level[i + 1]));
        level = up;
      }
      found.set(`${log2(r.end - r.start)}/${r.start}`, level[0]);
    }
    return found;
  }

  /** MTH(D[start:end]) for a range of the tree (folded from its complete subtrees; one read). */
  async rangeHash(orgId: string, start: number, end: number): Promise<Buffer> {
    const [hash] = await this.rangeHashes(orgId, [{ start, end }]);
    return hash;
  }

  /** MTH of each range (a whole proof's ranges, folded from the subtrees and leaf hashes one query reads). */
  async rangeHashes(orgId: string, ranges: Array<{ start: number; end: number }>): Promise<Buffer[]> {
    const parts = ranges.map((r) => (r.start === r.end ? [] : alignedRanges(r.start, r.end)));
    const found = await this.subtrees(this.dataSource, orgId, parts.flat());
    return parts.map((aligned) => {
      if (!aligned.length) return emptyRoot();
      return foldAligned(
        aligned.map((r) => {
          const hash = found.get(`${log2(r.end - r.start)}/${r.start}`);
          if (!hash) throw new Error(`evidence log of org ${orgId}: subtree [${r.start}, ${r.end}) is missing`);
          return hash;
        }),
      );
    });
  }

  async size(orgId: string): Promise<number> {
    return this.sizeIn(this.dataSource, orgId);
  }

  private async sizeIn(manager: EntityManager | DataSource, orgId: string): Promise<number> {
    const [{ size }]: Array<{ size: string }> = await manager.query(
      `SELECT COALESCE((SELECT idx + 1 FROM log_entries WHERE org_id = $1 ORDER BY idx DESC LIMIT 1), 0) AS size`,
      [orgId],
    );
    return Number(size);
  }

  async entries(orgId: string, start: number, limit: number): Promise<StoredEntry[]> {
    const rows: Array<{ idx: string; leaf: string; leaf_hash: Buffer }> = await this.dataSource.query(
      `SELECT idx, leaf, leaf_hash FROM log_entries WHERE org_id = $1 AND idx >= $2 AND idx < $2::bigint + $3::bigint ORDER BY idx`,
      [orgId, start, limit],
    );
    return rows.map((r) => ({ index: Number(r.idx), leaf: r.leaf, leafHash: r.leaf_hash }));
  }

  /**
   * The entry of one record: integrated (with its index), or still queued (index null). One statement, so an
   * entry being integrated is seen on one side or the other.
   */
  async byRecord(
    orgId: string,
    kind: string,
    recordId: string,
  ): Promise<{ index: number | null; leaf: string | null; leafHash: Buffer | null; ref: Record<string, unknown> | null; queuedAt: Date | null } | null> {
    const rows: Array<{ idx: string | null; leaf: string | null; leaf_hash: Buffer | null; ref: Record<string, unknown> | null; queued_at: Date | null }> =
      await this.dataSource.query(
        `(SELECT idx, leaf, leaf_hash, NULL::jsonb AS ref, NULL::timestamptz AS queued_at FROM log_entries
          WHERE (org_id::text || '/' || kind || '/' || record_id) = $4 AND org_id = $1 AND kind = $2 AND record_id = $3)
         UNION ALL
         (SELECT NULL, leaf, leaf_hash, ref, queued_at FROM log_pending WHERE org_id = $1 AND kind = $2 AND record_id = $3 LIMIT 1)
         ORDER BY 1 NULLS LAST LIMIT 1`,
        [orgId, kind, recordId, recordKey(orgId, kind, recordId)],
      );
    if (!rows.length) return null;
    const r = rows[0];
    return { index: r.idx === null ? null : Number(r.idx), leaf: r.leaf, leafHash: r.leaf_hash, ref: r.ref, queuedAt: r.queued_at };
  }

  /** The leaf hashes of entries by index (every index must be in the log). */
  async leafHashesAt(orgId: string, indexes: number[]): Promise<Map<number, Buffer>> {
    const rows: Array<{ idx: string; leaf_hash: Buffer }> = await this.dataSource.query(
      `SELECT idx, leaf_hash FROM log_entries WHERE org_id = $1 AND idx = ANY($2::bigint[])`,
      [orgId, indexes],
    );
    return new Map(rows.map((r) => [Number(r.idx), r.leaf_hash]));
  }

  /** The first index of a leaf hash in the org's log, or null. */
  async indexOfLeafHash(orgId: string, hash: Buffer): Promise<number | null> {
    const rows: Array<{ idx: string }> = await this.dataSource.query(
      `SELECT idx FROM log_entries WHERE org_id = $1 AND leaf_hash = $2 ORDER BY idx LIMIT 1`,
      [orgId, hash],
    );
    return rows.length ? Number(rows[0].idx) : null;
  }

  async checkpoint(orgId: string, size?: number): Promise<StoredCheckpoint | null> {
    const rows: Array<{ size: string; root: Buffer; note: string }> =
      size === undefined
        ? await this.dataSource.query(`SELECT size, root, note FROM log_checkpoints WHERE org_id = $1 ORDER BY size DESC LIMIT 1`, [orgId])
        : await this.dataSource.query(`SELECT size, root, note FROM log_checkpoints WHERE org_id = $1 AND size = $2`, [orgId, size]);
    return rows.length ? { size: Number(rows[0].size), root: rows[0].root, note: rows[0].note } : null;
  }

  /** Orgs whose log has grown past its latest signed checkpoint. */
  async grown(): Promise<OrgToSign[]> {
    const rows: Array<{ org_id: string; org_name: string; size: string }> = await this.dataSource.query(
      `SELECT o.id AS org_id, o.name AS org_name, e.size
       FROM organizations o
       CROSS JOIN LATERAL (SELECT idx + 1 AS size FROM log_entries WHERE org_id = o.id ORDER BY idx DESC LIMIT 1) e
       LEFT JOIN LATERAL (SELECT size FROM log_checkpoints WHERE org_id = o.id ORDER BY size DESC LIMIT 1) c ON true
       WHERE c.size IS NULL OR c.size < e.size`,
    );
    return rows.map((r) => ({ orgId: r.org_id, orgName: r.org_name, size: Number(r.size) }));
  }

  /** Keeps a signed checkpoint; a second signer of the same size (same root: the tree is fixed) changes nothing. */
  async saveCheckpoint(orgId: string, cp: StoredCheckpoint): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO log_checkpoints (org_id, size, root, note) VALUES ($1, $2, $3, $4) ON CONFLICT (org_id, size) DO NOTHING`,
      [orgId, cp.size, cp.root, cp.note],
    );
  }
}
