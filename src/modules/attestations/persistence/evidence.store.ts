import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { EvidenceCorruptedError } from '../evidence-errors';
import { StagedEvidence } from '../upload/staged-evidence';
import { copyByteaOut } from './bytea-copy';

/** One `evidence_blobs` row: `content` is null for a blob kept outside PostgreSQL (in a bucket). */
export interface BlobRow {
  sha256: Buffer;
  size: number;
  content: Buffer | null;
}

export interface StoredEvidence {
  size: number;
  /** The content in order, in slices of bounded size. */
  chunks(): AsyncIterable<Buffer>;
}

/**
 * Content-addressed attachment store, keyed by sha256: the same bytes are stored once however often they are
 * attached. One implementation is bound in the attestations module, chosen by configuration: PostgreSQL
 * (`PostgresEvidenceStore`, the default) or an S3-compatible bucket (`S3EvidenceStore`). A third store is one
 * more subclass (docs/architecture.md, "The evidence store").
 *
 * Contract: the content handed to a store is read with `StagedEvidence.read()`, which checks it against the
 * sha256 the attestation will record (a mismatch stores nothing); every blob has its `evidence_blobs` row
 * (attestations reference it), written in the caller's transaction or statement, and bytes kept elsewhere are
 * stored before that row; `fetch` checks the blob against its sha256 before returning any of it.
 */
export abstract class EvidenceStore {
  /** At most two large blobs are held in memory at once per process when fetched whole. */
  private readonly largeFetches = new Gate(2);

  /** Stores one blob, joining the caller's transaction where the store is transactional. */
  abstract put(manager: EntityManager, evidence: StagedEvidence): Promise<void>;
  /** Several small blobs at once (a group of attestations); the default stores them one by one. */
  async putMany(manager: EntityManager, evidence: StagedEvidence[]): Promise<void> {
    for (const e of evidence) await this.put(manager, e);
  }
  /**
   * Before one statement that writes attestation rows naming these blobs (the one-statement group): stores
   * what this store keeps outside PostgreSQL, and returns the `evidence_blobs` rows the statement inserts
   * itself with `evidenceBlobInsertSql` (with their content for PostgreSQL, without for a bucket).
   */
  abstract putAhead(evidence: StagedEvidence[]): Promise<BlobRow[]>;
  /** The stored blob, read lazily; null when the store has no such blob. */
  abstract open(sha256: Buffer): Promise<StoredEvidence | null>;

  /**
   * The whole blob, checked against its sha256 (and size) before any of it is returned, so a corrupted blob is
   * an error (EvidenceCorruptedError) before a response has begun. Attachments are at most 10 MB; larger than
   * 1 MB, at most two are held at once per process (others wait their turn). null when there is no such blob.
   */
  async fetch(sha256: Buffer): Promise<Buffer | null> {
    const stored = await this.open(sha256);
    if (!stored) return null;
    const read = async () => {
      const hash = createHash('sha256');
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of stored.chunks()) {
        hash.update(chunk);
        chunks.push(chunk);
        size += chunk.length;
      }
      if (size !== stored.size || !hash.digest().equals(sha256)) throw new EvidenceCorruptedError(sha256.toString('hex'));
      return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
    };
    return stored.size > LARGE_BLOB_BYTES ? this.largeFetches.run(read) : read();
  }
}

/**
 * The INSERT of blobs given as `(sha256, size, content)` VALUES tuples, for a statement that stores blobs
 * together with its own rows (the one-statement attestation group); `alsoFrom`/`where` let it write nothing
 * when the statement's guard fails. Same effect as PostgresEvidenceStore.put for a blob without a row (a row
 * without content is given its bytes by PostgresEvidenceStore.putAhead before the statement).
 */
export function evidenceBlobInsertSql(tuples: string[], alsoFrom?: string, where?: string): string {
  return `INSERT INTO evidence_blobs (sha256, size, content)
           SELECT v.s, v.z, v.c FROM (VALUES ${tuples.join(', ')}) AS v(s, z, c)${alsoFrom ? `, ${alsoFrom}` : ''}${where ? ` WHERE ${where}` : ''}
           ON CONFLICT (sha256) DO NOTHING`;
}

/** The VALUES tuple of one blob whose three parameters start at `$first`. */
export const BLOB_TUPLE = (first: number) => `($${first}::bytea, $${first + 1}::bigint, $${first + 2}::bytea)`;

/**
 * Gives a row kept outside PostgreSQL (content NULL) its bytes: the one change the append-only trigger allows on
 * `evidence_blobs`, and only with bytes of the row's SHA-256 and size (migration 1764220000000).
 */
const FILL_SQL = `UPDATE evidence_blobs SET content = $2 WHERE sha256 = $1 AND content IS NULL`;

/** Blobs larger than this are read whole a few at a time per process, to bound memory. */
export const LARGE_BLOB_BYTES = 1024 * 1024;
const READ_SLICE_BYTES = 1024 * 1024;

/** A tiny FIFO semaphore. */
export class Gate {
  private waiting: Array<() => void> = [];
  private active = 0;
  constructor(private readonly limit: number) {}
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

@Injectable()
export class PostgresEvidenceStore extends EvidenceStore {
  /** At most two large blobs are held in memory at once by this process (each is read once, then sent). */
  private readonly largeBlobs = new Gate(2);

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  /**
   * A row with its content is reused; a row whose bytes were kept in a bucket (content NULL, written while the
   * deployment used one) is given them, since this store can only serve what it holds.
   */
  async put(manager: EntityManager, evidence: StagedEvidence): Promise<void> {
    const present: Array<{ empty: boolean }> = await manager.query(`SELECT content IS NULL AS empty FROM evidence_blobs WHERE sha256 = $1`, [evidence.sha256]);
    if (present.length && !present[0].empty) return;
    const insert = async () => {
      const content = await evidence.read();
      if (present.length) await manager.query(FILL_SQL, [evidence.sha256, content]);
      else await manager.query(evidenceBlobInsertSql([BLOB_TUPLE(1)]), [evidence.sha256, evidence.size, content]);
    };
    if (evidence.size > LARGE_BLOB_BYTES) await this.largeBlobs.run(insert);
    else await insert();
  }

  /**
   * The statement stores them all itself, content included (its insert skips rows that exist); rows left
   * without content by a bucket are given theirs here first (filling one is valid whatever the statement does).
   */
  async putAhead(evidence: StagedEvidence[]): Promise<BlobRow[]> {
    const rows = await Promise.all(evidence.map(async (e) => ({ sha256: e.sha256, size: e.size, content: await e.read() })));
    await this.fillKeptElsewhere(this.dataSource.manager, rows);
    return rows;
  }

  /** Gives their bytes to those of these blobs whose rows exist without content (written while in a bucket). */
  private async fillKeptElsewhere(manager: EntityManager, blobs: Array<{ sha256: Buffer; content: Buffer }>): Promise<void> {
    if (!blobs.length) return;
    const empty: Array<{ sha256: Buffer }> = await manager.query(`SELECT sha256 FROM evidence_blobs WHERE sha256 = ANY($1::bytea[]) AND content IS NULL`, [
      blobs.map((b) => b.sha256),
    ]);
    for (const row of empty) {
      const blob = blobs.find((b) => b.sha256.equals(row.sha256))!;
      await manager.query(FILL_SQL, [blob.sha256, blob.content]);
    }
  }

  /** The rows of blobs whose bytes another store has just put elsewhere (content NULL), in the caller's transaction. */
  async recordElsewhere(manager: EntityManager, evidence: StagedEvidence[]): Promise<void> {
    const values: unknown[] = [];
    const tuples = evidence.map((e) => {
      values.push(e.sha256, e.size, null);
      return BLOB_TUPLE(values.length - 2);
    });
    if (tuples.length) await manager.query(evidenceBlobInsertSql(tuples), values);
  }

  override async putMany(manager: EntityManager, evidence: StagedEvidence[]): Promise<void> {
    const small = evidence.filter((e) => e.size <= LARGE_BLOB_BYTES);
    for (const e of evidence) if (e.size > LARGE_BLOB_BYTES) await this.put(manager, e);
    if (!small.length) return;
    const contents = await Promise.all(small.map((e) => e.read()));
    // One statement, every value a separate parameter: pg sends Buffers as binary (a bytea[] array parameter
    // would be hex text, twice the size, and costly to build and to parse).
    const values: unknown[] = [];
    const tuples = small.map((e, i) => {
      values.push(e.sha256, e.size, contents[i]);
      return BLOB_TUPLE(values.length - 2);
    });
    await manager.query(evidenceBlobInsertSql(tuples), values);
    await this.fillKeptElsewhere(
      manager,
      small.map((e, i) => ({ sha256: e.sha256, content: contents[i] })),
    );
  }

  /** null also for a blob whose bytes are kept outside PostgreSQL (content NULL). */
  async open(sha256: Buffer): Promise<StoredEvidence | null> {
    const rows: Array<{ size: string }> = await this.dataSource.query(`SELECT size FROM evidence_blobs WHERE sha256 = $1 AND content IS NOT NULL`, [sha256]);
    if (!rows.length) return null;
    const size = Number(rows[0].size);
    const dataSource = this.dataSource;
    return {
      size,
      async *chunks() {
        // Blobs are immutable, so reading slice by slice outside a transaction is consistent. Each slice is read
        // as raw bytes by COPY (binary), not as hex text; the digest in the statement is hex of a Buffer we hold.
        const hex = sha256.toString('hex');
        for (let offset = 0; offset < size; offset += READ_SLICE_BYTES) {
          const copied = await copyByteaOut(
            dataSource,
            `SELECT substring(content FROM ${offset + 1} FOR ${READ_SLICE_BYTES}) FROM evidence_blobs WHERE sha256 = decode('${hex}', 'hex')`,
          );
          if (copied !== undefined) {
            // A blob that disappeared midway ends early: the caller's size check refuses it.
            if (copied === null) return;
            yield copied;
            continue;
          }
          const slice: Array<{ chunk: Buffer }> = await dataSource.query(
            `SELECT substring(content FROM $2 FOR $3) AS chunk FROM evidence_blobs WHERE sha256 = $1`,
            [sha256, offset + 1, READ_SLICE_BYTES],
          );
          yield slice[0].chunk;
        }
      },
    };
  }
}
