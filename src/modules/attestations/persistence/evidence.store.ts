import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { StagedEvidence } from '../upload/staged-evidence';

export interface StoredEvidence {
  size: number;
  /** The content in order, in slices of bounded size. */
  chunks(): AsyncIterable<Buffer>;
}

/**
 * Content-addressed attachment store, keyed by sha256: the same bytes are stored once however often they are
 * attached. Writes join the caller's transaction, so an attestation and its blob commit together.
 * PostgreSQL now; an S3-compatible bucket can implement the same contract.
 */
export abstract class EvidenceStore {
  abstract put(manager: EntityManager, evidence: StagedEvidence): Promise<void>;
  /** Several small blobs at once (a group of attestations); the default stores them one by one. */
  async putMany(manager: EntityManager, evidence: StagedEvidence[]): Promise<void> {
    for (const e of evidence) await this.put(manager, e);
  }
  abstract open(sha256: Buffer): Promise<StoredEvidence | null>;
}

/**
 * The INSERT of blobs given as `(sha256, size, content)` VALUES tuples, for a statement that stores blobs
 * together with its own rows (the one-statement attestation group); `alsoFrom`/`where` let it write nothing
 * when the statement's guard fails. Same effect as PostgresEvidenceStore.put.
 */
export function evidenceBlobInsertSql(tuples: string[], alsoFrom?: string, where?: string): string {
  return `INSERT INTO evidence_blobs (sha256, size, content)
           SELECT v.s, v.z, v.c FROM (VALUES ${tuples.join(', ')}) AS v(s, z, c)${alsoFrom ? `, ${alsoFrom}` : ''}${where ? ` WHERE ${where}` : ''}
           ON CONFLICT (sha256) DO NOTHING`;
}

/** The VALUES tuple of one blob whose three parameters start at `$first`. */
export const BLOB_TUPLE = (first: number) => `($${first}::bytea, $${first + 1}::bigint, $${first + 2}::bytea)`;

/** Blobs larger than this are read from their temp file one at a time per process, to bound memory. */
const LARGE_BLOB_BYTES = 1024 * 1024;
const READ_SLICE_BYTES = 1024 * 1024;

/** A tiny FIFO semaphore. */
class Gate {
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

  async put(manager: EntityManager, evidence: StagedEvidence): Promise<void> {
    const present = await manager.query(`SELECT 1 FROM evidence_blobs WHERE sha256 = $1`, [evidence.sha256]);
    if (present.length) return;
    const insert = async () => {
      const content = await evidence.read();
      await manager.query(evidenceBlobInsertSql([BLOB_TUPLE(1)]), [evidence.sha256, evidence.size, content]);
    };
    if (evidence.size > LARGE_BLOB_BYTES) await this.largeBlobs.run(insert);
    else await insert();
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
  }

  async open(sha256: Buffer): Promise<StoredEvidence | null> {
    const rows: Array<{ size: string }> = await this.dataSource.query(`SELECT size FROM evidence_blobs WHERE sha256 = $1`, [sha256]);
    if (!rows.length) return null;
    const size = Number(rows[0].size);
    const dataSource = this.dataSource;
    return {
      size,
      async *chunks() {
        // Blobs are immutable, so reading slice by slice outside a transaction is consistent.
        for (let offset = 0; offset < size; offset += READ_SLICE_BYTES) {
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
