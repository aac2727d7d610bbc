import { createHash, Hash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, WriteStream } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { InsufficientResourcesError } from '../../../common/errors/resource-errors';
import { CleanupFailed, removeTempFile, StagedEvidence } from './staged-evidence';

/** Attachments up to this size stay in memory; larger ones are spilled to a temp file as they stream in. */
export const SPILL_THRESHOLD_BYTES = 512 * 1024;

export const UPLOAD_DIR = path.join(os.tmpdir(), 'veritrail-uploads');

export class UploadTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`attachment is larger than ${limit} bytes`);
  }
}

/**
 * Receives one attachment as it streams in: hashes it (sha256) and counts it against the size cap as it goes,
 * keeps it in memory up to SPILL_THRESHOLD_BYTES and spills it to a temp file beyond that, so an upload in
 * flight never holds more than the threshold in memory. `finish()` gives the StagedEvidence; `abort()` drops
 * whatever was staged.
 */
export class AttachmentSink {
  private readonly hash: Hash = createHash('sha256');
  private chunks: Buffer[] = [];
  private size = 0;
  private spill: WriteStream | null = null;
  private tempPath: string | null = null;
  private spillError: Error | null = null;
  private aborted = false;

  constructor(
    private readonly maxBytes: number,
    private readonly filename: string,
    private readonly contentType: string,
    /** Told when a temp file could not be removed (abort never rejects: nothing waits for it). */
    private readonly cleanupFailed: CleanupFailed = () => undefined,
  ) {}

  /**
   * Takes the next slice of the file. Throws UploadTooLargeError past the cap, and the temp file's own error
   * (ENOSPC: the disk is full) as soon as it is known, so the request is refused without staging the rest.
   */
  write(data: Buffer): void {
    if (this.spillError) throw this.spillError;
    this.size += data.length;
    if (this.size > this.maxBytes) throw new UploadTooLargeError(this.maxBytes);
    this.hash.update(data);
    if (this.spill) {
      this.spill.write(data);
      return;
    }
    // Kept as it came, not copied: a slice of a request chunk, which nothing writes into afterwards (Node gives each
    // read its own buffer; the parser never writes into what it has sliced). StagedEvidence relies on it: bytes
    // kept in memory are stored without being hashed a second time.
    this.chunks.push(data);
    if (this.size > SPILL_THRESHOLD_BYTES) {
      ensureUploadDir();
      this.tempPath = path.join(UPLOAD_DIR, randomUUID());
      this.spill = createWriteStream(this.tempPath, { mode: 0o600 });
      this.spill.on('error', (error) => (this.spillError ??= error));
      for (const chunk of this.chunks) this.spill.write(chunk);
      this.chunks = [];
    }
  }

  /** True while the temp file has more buffered than its high-water mark: the source should pause. */
  get needsDrain(): boolean {
    return this.spill?.writableNeedDrain ?? false;
  }

  /** Calls `resume` once the temp file has caught up, or has failed (the next write then throws its error). */
  onDrain(resume: () => void): void {
    const spill = this.spill;
    if (!spill || this.spillError) return resume();
    const done = () => {
      spill.off('drain', done);
      spill.off('error', done);
      resume();
    };
    spill.once('drain', done);
    spill.once('error', done);
  }

  async finish(): Promise<StagedEvidence> {
    const digest = this.hash.digest();
    const name = path.basename(this.filename || 'attachment');
    const type = this.contentType || 'application/octet-stream';
    if (!this.spill) {
      const content = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
      this.chunks = [];
      return new StagedEvidence(digest, this.size, name, type, content, null, this.cleanupFailed);
    }
    const spill = this.spill;
    await new Promise<void>((resolve, reject) => {
      if (this.spillError) return reject(this.spillError);
      spill.once('error', reject);
      // end's callback is also called when the file fails (an open that fails after the last write): with the error.
      spill.end((error?: Error | null) => (error ? reject(error) : resolve()));
    }).catch(async (error) => {
      await this.abort();
      throw error;
    });
    return new StagedEvidence(digest, this.size, name, type, null, this.tempPath, this.cleanupFailed);
  }

  /** Drops what was staged. Never rejects: a temp file that cannot be removed (EROFS, EIO) is reported, not thrown. */
  async abort(): Promise<void> {
    if (this.aborted) return;
    this.aborted = true;
    this.chunks = [];
    const spill = this.spill;
    if (spill && !spill.closed) {
      await new Promise<void>((resolve) => {
        spill.once('close', () => resolve());
        spill.destroy();
      });
    }
    if (this.tempPath) await removeTempFile(this.tempPath, this.cleanupFailed);
  }
}

/**
 * Creates the upload folder, each time an attachment is spilled (never for requests that stay in memory): a tmp
 * cleaner may have removed it while the service ran, and a folder that could not be made once (a full disk) is
 * made as soon as there is room again. Any failure is the server's lack of room for files, a 503: Node's recursive
 * mkdir reports a full disk as ENOENT, so the code cannot tell it apart.
 */
export function ensureUploadDir(): void {
  try {
    mkdirSync(UPLOAD_DIR, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new InsufficientResourcesError('storage', 'files', `the upload folder could not be created: ${(error as Error)?.message}`);
  }
}
