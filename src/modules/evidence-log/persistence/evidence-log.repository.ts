import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { alignedRanges, emptyRoot, foldAligned, nodeHash } from '../../../../libs/transparency/src';

export interface NewLogEntry {
  kind: string;
  recordId: string;
  leaf: string;
  leafHash: Buffer;
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

const log2 = (n: number): number => 31 - Math.clz32(n);

/**
 * The SQL of the evidence log: `log_entries`, `log_subtrees` and `log_checkpoints` (all append-only, enforced
 * by triggers). A complete aligned subtree `[start, start + 2^level)` is stored at (level, start).
 */
@Injectable()
export class EvidenceLogRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Appends entries of one org in the caller's transaction. A transaction-scoped advisory lock per org is
   * held until commit, so the next writer of that org sees these rows: indexes are gapless and in commit order.
   * The subtrees the new leaves complete are written in the same statement batch.
   */
  async append(manager: EntityManager, orgId: string, entries: NewLogEntry[]): Promise<number[]> {
    if (!entries.length) return [];
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('veritrail-evidence-log/' || $1::text, 0))`, [orgId]);
    const [{ next }]: Array<{ next: string }> = await manager.query(
      `SELECT COALESCE((SELECT idx + 1 FROM log_entries WHERE org_id = $1 ORDER BY idx DESC LIMIT 1), 0) AS next`,
      [orgId],
    );
    const first = Number(next);
    // The frontier: the complete subtrees of the tree as it is, the left siblings new leaves may complete.
    const known = new Map<string, Buffer>();
    for (const [key, hash] of await this.subtrees(manager, orgId, alignedRanges(0, first))) known.set(key, hash);
    const levels: number[] = [];
    const starts: number[] = [];
    const hashes: Buffer[] = [];
    const put = (level: number, start: number, hash: Buffer) => {
      known.set(`${level}/${start}`, hash);
      levels.push(level);
      starts.push(start);
      hashes.push(hash);
    };
    entries.forEach((entry, k) => {
      const i = first + k;
      put(0, i, entry.leafHash);
      for (let level = 1; (i + 1) % 2 ** level === 0; level++) {
        const start = i + 1 - 2 ** level;
        const half = 2 ** (level - 1);
        const left = known.get(`${level - 1}/${start}`);
        const right = known.get(`${level - 1}/${start + half}`);
        if (!left || !right) throw new Error(`evidence log of org ${orgId}: subtree ${level - 1}/${start} is missing`);
        put(level, start, nodeHash(left, right));
      }
    });
    await manager.query(
      `INSERT INTO log_entries (org_id, idx, kind, record_id, leaf, leaf_hash)
       SELECT $1, $2::bigint + n - 1, kind, record_id, leaf, leaf_hash
       FROM unnest($3::text[], $4::text[], $5::text[], $6::bytea[]) WITH ORDINALITY AS e(kind, record_id, leaf, leaf_hash, n)`,
      [orgId, first, entries.map((e) => e.kind), entries.map((e) => e.recordId), entries.map((e) => e.leaf), entries.map((e) => e.leafHash)],
    );
    await manager.query(
      `INSERT INTO log_subtrees (org_id, level, start, hash) SELECT $1, * FROM unnest($2::smallint[], $3::bigint[], $4::bytea[])`,
      [orgId, levels, starts, hashes],
    );
    return entries.map((_, k) => first + k);
  }

  private async subtrees(manager: EntityManager | DataSource, orgId: string, ranges: Array<{ start: number; end: number }>): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    if (!ranges.length) return found;
    const rows: Array<{ level: number; start: string; hash: Buffer }> = await manager.query(
      `SELECT s.level, s.start, s.hash FROM log_subtrees s
       JOIN unnest($2::smallint[], $3::bigint[]) AS w(level, start) ON s.level = w.level AND s.start = w.start
       WHERE s.org_id = $1`,
      [orgId, ranges.map((r) => log2(r.end - r.start)), ranges.map((r) => r.start)],
    );
    for (const row of rows) found.set(`${row.level}/${Number(row.start)}`, row.hash);
    return found;
  }

  /** MTH(D[start:end]) for a range of the tree (folded from its complete subtrees; one read). */
  async rangeHash(orgId: string, start: number, end: number): Promise<Buffer> {
    if (start === end) return emptyRoot();
    const ranges = alignedRanges(start, end);
    const found = await this.subtrees(this.dataSource, orgId, ranges);
    const hashes = ranges.map((r) => {
      const hash = found.get(`${log2(r.end - r.start)}/${r.start}`);
      if (!hash) throw new Error(`evidence log of org ${orgId}: subtree [${r.start}, ${r.end}) is missing`);
      return hash;
    });
    return foldAligned(hashes);
  }

  async size(orgId: string): Promise<number> {
    const [{ size }]: Array<{ size: string }> = await this.dataSource.query(
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

  async byRecord(orgId: string, kind: string, recordId: string): Promise<StoredEntry | null> {
    const rows: Array<{ idx: string; leaf: string; leaf_hash: Buffer }> = await this.dataSource.query(
      `SELECT idx, leaf, leaf_hash FROM log_entries WHERE org_id = $1 AND kind = $2 AND record_id = $3`,
      [orgId, kind, recordId],
    );
    return rows.length ? { index: Number(rows[0].idx), leaf: rows[0].leaf, leafHash: rows[0].leaf_hash } : null;
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
