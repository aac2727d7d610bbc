import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { EvidenceDigestMismatchError } from '../evidence-errors';

/** Told when a staged temp file could not be removed (a read-only or failing disk): the caller logs it. */
export type CleanupFailed = (error: unknown, tempPath: string) => void;

/**
 * An attachment that has been received, hashed and size-checked but not stored yet. Small files stay in
 * memory (one bounded buffer); larger ones were spilled to a temp file while streaming, so an upload in flight
 * costs at most the spill threshold of memory.
 */
export class StagedEvidence {
  constructor(
    readonly sha256: Buffer,
    readonly size: number,
    readonly filename: string,
    readonly contentType: string,
    private readonly memory: Buffer | null,
    private readonly tempPath: string | null,
    private readonly cleanupFailed: CleanupFailed = () => undefined,
  ) {}

  get sha256Hex(): string {
    return this.sha256.toString('hex');
  }

  /**
   * The content as one buffer (read once, when it is written to the store). A temp file is checked against
   * `sha256`, the digest the attestation records: bytes that changed on disk since they were hashed on the way
   * in throw EvidenceDigestMismatchError, before any store has been given them. Content held in memory is the
   * bytes the sink hashed (slices of request chunks nothing writes into, joined into one buffer by the sink),
   * never handed out before this, so it is not hashed a second time.
   */
  read(): Promise<Buffer> {
    // Kept once read: a type that judges its evidence reads it before the insert does (one read, one hash).
    return (this.verified ??= this.readVerified());
  }

  private verified: Promise<Buffer> | null = null;

  private async readVerified(): Promise<Buffer> {
    if (this.memory) return this.memory;
    const content = this.tempPath ? await fs.readFile(this.tempPath) : Buffer.alloc(0);
    const actual = createHash('sha256').update(content).digest();
    if (content.length !== this.size || !actual.equals(this.sha256)) throw new EvidenceDigestMismatchError(this.sha256Hex, actual.toString('hex'));
    return content;
  }

  /**
   * Removes the temp file. Never rejects (it is called when a response closes, where nothing could catch it and
   * an unhandled rejection would end the process): `rm` with `force` still fails on EROFS, EIO or EPERM, and
   * that goes to `cleanupFailed`.
   */
  async dispose(): Promise<void> {
    if (this.tempPath) await removeTempFile(this.tempPath, this.cleanupFailed);
  }
}

/** Removes a staged temp file; a failure goes to `failed` (logged by the caller), never to a rejected promise. */
export async function removeTempFile(tempPath: string, failed: CleanupFailed): Promise<void> {
  try {
    await fs.rm(tempPath, { force: true });
  } catch (error) {
    failed(error, tempPath);
  }
}
