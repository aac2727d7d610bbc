import { promises as fs } from 'node:fs';

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
  ) {}

  get sha256Hex(): string {
    return this.sha256.toString('hex');
  }

  /** The content as one buffer (read once, when it is written to the store). */
  async read(): Promise<Buffer> {
    if (this.memory) return this.memory;
    if (this.tempPath) return fs.readFile(this.tempPath);
    return Buffer.alloc(0);
  }

  async dispose(): Promise<void> {
    if (this.tempPath) await fs.rm(this.tempPath, { force: true });
  }
}
