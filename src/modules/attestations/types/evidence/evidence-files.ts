import { createGunzip } from 'node:zlib';
import { PayloadTooLargeError } from '../../../../common/errors/app-error';
import { nextTurn } from '../../../../common/event-loop/next-turn';
import { EvidenceFormatError } from './evidence-format-error';
import type { FileSink } from './file-sink';
import { looksLikeTar, TarReader } from './tar-reader';

export type { FileSink } from './file-sink';

/**
 * Bytes an archive may expand to, in total: a gzip bomb stops here (413) instead of filling memory. The
 * attachment itself is at most 10 MB; a real archive of test reports compresses about 10:1.
 */
export const MAX_EXPANDED_BYTES = 128 * 1024 * 1024;
/** Size of the slices a file is fed in; between slices the event loop gets a turn every YIELD_EVERY bytes. */
const SLICE = 64 * 1024;
const YIELD_EVERY = 1024 * 1024;

/**
 * Walks the files of an attachment as the CLI sends it: one file as is, or several (or a directory) as a
 * gzipped tar. Each regular file is offered to `open(name)` and streamed into its sink in bounded slices, so a
 * parser never needs a whole file at once and memory stays flat however large the report. A gzip stream that is
 * not a tar is read as one file (`report.xml.gz`).
 */
export async function walkEvidenceFiles(content: Buffer, filename: string, open: (name: string) => FileSink | null): Promise<void> {
  if (content.length >= 2 && content[0] === 0x1f && content[1] === 0x8b) {
    await walkGzip(content, filename.replace(/\.(t?gz)$/i, (m) => (m.toLowerCase() === '.tgz' ? '.tar' : '')), open);
  } else if (looksLikeTar(content)) {
    const reader = new TarReader(open);
    await feed(content, (slice) => reader.write(slice));
    reader.end();
  } else {
    const sink = open(filename);
    if (!sink || sink.whole?.(content)) return;
    await feed(content, (slice) => sink.write(slice));
    sink.end();
  }
}

async function feed(content: Buffer, write: (slice: Buffer) => void): Promise<void> {
  let sinceYield = 0;
  for (let at = 0; at < content.length; at += SLICE) {
    const slice = content.subarray(at, Math.min(at + SLICE, content.length));
    write(slice);
    sinceYield += slice.length;
    if (sinceYield >= YIELD_EVERY) {
      sinceYield = 0;
      await nextTurn();
    }
  }
}

/** Inflates in a stream: the first 512 bytes decide tar or single file; the rest never exists whole. */
function walkGzip(content: Buffer, innerName: string, open: (name: string) => FileSink | null): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const gunzip = createGunzip();
    let head: Buffer[] = [];
    let headSize = 0;
    let target: { write(chunk: Buffer): void; end(): void } | null = null;
    let expanded = 0;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      gunzip.destroy();
      reject(error);
    };
    const decide = () => {
      const first = Buffer.concat(head, headSize);
      head = [];
      target = looksLikeTar(first) ? new TarReader(open) : (open(innerName) ?? { write: () => undefined, end: () => undefined });
      target.write(first);
    };
    gunzip.on('data', (chunk: Buffer) => {
      if (failed) return;
      expanded += chunk.length;
      if (expanded > MAX_EXPANDED_BYTES) {
        return fail(new PayloadTooLargeError(`The attachment expands to more than ${MAX_EXPANDED_BYTES} bytes; nothing was stored`));
      }
      try {
        if (target) target.write(chunk);
        else {
          head.push(chunk);
          headSize += chunk.length;
          if (headSize >= 512) decide();
        }
      } catch (error) {
        fail(error);
      }
    });
    gunzip.on('end', () => {
      if (failed) return;
      try {
        if (!target) decide();
        target!.end();
        resolve();
      } catch (error) {
        fail(error);
      }
    });
    gunzip.on('error', (error) => fail(new EvidenceFormatError(`the attachment is not a readable gzip file (${error.message})`)));
    void (async () => {
      for (let at = 0; at < content.length && !failed; at += SLICE) {
        const ok = gunzip.write(content.subarray(at, Math.min(at + SLICE, content.length)));
        if (!ok) {
          await new Promise<void>((r) => {
            gunzip.once('drain', r);
            gunzip.once('close', r);
          });
        }
      }
      if (!failed) gunzip.end();
    })();
  });
}
