import type { Request } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, promises as fs, WriteStream } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { StorageEngine } from 'multer';
import { StagedEvidence } from './staged-evidence';

/** Attachments up to this size stay in memory; larger ones are spilled to a temp file as they stream in. */
export const SPILL_THRESHOLD_BYTES = 512 * 1024;

export const UPLOAD_DIR = path.join(os.tmpdir(), 'veritrail-uploads');

export class UploadTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`attachment is larger than ${limit} bytes`);
  }
}

/**
 * multer StorageEngine that streams a file part through sha256 with a size cap, instead of multer's memory
 * storage (which buffers every file whole, per request). The result is a StagedEvidence on `file.staged`.
 */
export class HashingStorage implements StorageEngine {
  constructor(private readonly maxBytes: number) {}

  _handleFile(_req: Request, file: Express.Multer.File, callback: (error?: any, info?: Partial<Express.Multer.File>) => void): void {
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let size = 0;
    let spill: WriteStream | null = null;
    let tempPath: string | null = null;
    let failed: Error | null = null;
    let done = false;

    const finish = (error: Error | null, staged?: StagedEvidence) => {
      if (done) return;
      done = true;
      if (error) {
        spill?.destroy();
        if (tempPath) void fs.rm(tempPath, { force: true });
        callback(error);
      } else callback(null, { size: staged!.size, staged } as any);
    };

    const stream = file.stream;
    stream.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > this.maxBytes) {
        // busboy's own fileSize limit normally fires first; this is the backstop. Keep draining the part.
        failed = new UploadTooLargeError(this.maxBytes);
        chunks.length = 0;
        return;
      }
      hash.update(chunk);
      if (spill) {
        if (!spill.write(chunk)) {
          stream.pause();
          spill.once('drain', () => stream.resume());
        }
        return;
      }
      chunks.push(chunk);
      if (size > SPILL_THRESHOLD_BYTES) {
        tempPath = path.join(UPLOAD_DIR, randomUUID());
        spill = createWriteStream(tempPath, { mode: 0o600 });
        spill.on('error', (e) => finish(e));
        for (const c of chunks) spill.write(c);
        chunks.length = 0;
      }
    });
    stream.on('error', (e: Error) => finish(e));
    stream.on('end', () => {
      if (failed || (stream as any).truncated) return finish(failed ?? new UploadTooLargeError(this.maxBytes));
      const filename = path.basename(file.originalname || 'attachment');
      const contentType = file.mimetype || 'application/octet-stream';
      const digest = hash.digest();
      if (spill) {
        spill.end(() => finish(null, new StagedEvidence(digest, size, filename, contentType, null, tempPath)));
      } else {
        finish(null, new StagedEvidence(digest, size, filename, contentType, Buffer.concat(chunks, size), null));
      }
    });
  }

  _removeFile(_req: Request, file: Express.Multer.File & { staged?: StagedEvidence }, callback: (error: Error | null) => void): void {
    const staged = file.staged;
    if (!staged) return callback(null);
    staged.dispose().then(() => callback(null), (e) => callback(e));
  }
}

export async function ensureUploadDir(): Promise<void> {
  await fs.mkdir(UPLOAD_DIR, { recursive: true, mode: 0o700 });
}
