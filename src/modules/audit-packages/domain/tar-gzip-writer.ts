import { PassThrough } from 'node:stream';
import { constants, crc32, deflateRawSync } from 'node:zlib';

/** How a file's bytes are compressed: deflate (level 1), or stored as they are (bytes that do not compress). */
export type Compression = 'deflate' | 'store';

/** Small writes (tar headers, JSON files) are gathered up to this size, then deflated together. */
const GATHER_BYTES = 256 * 1024;
/** A large file is deflated this much at a time (the event loop is not held for a whole file). */
const DEFLATE_SLICE = 1024 * 1024;
/** A stored deflate block holds at most 65,535 bytes. */
const STORED_MAX = 0xffff;
/** How much of a file is trial-compressed to choose between deflate and store. */
const PROBE_BYTES = 16 * 1024;
const BLOCK = 512;
const ZEROS = Buffer.alloc(2 * BLOCK);
/** gzip member header: magic, deflate, no flags, mtime 0 (the bytes depend on the content only), no extra flags, OS unix. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** The last deflate block: empty, stored, BFINAL set. */
const FINAL_BLOCK = Buffer.from([1, 0, 0, 0xff, 0xff]);

/**
 * A tar (POSIX ustar; a pax `path` record only for a name ustar cannot hold) as one gzip member, written
 * with back-pressure: every write waits until the returned stream has room.
 *
 * Attachments are mostly compressed already, and deflating incompressible bytes (even at level 1) cost as much CPU
 * as everything else in a package together; so each file's bytes are either deflated or stored (deflate's stored
 * blocks), chosen per file. The deflate stream is built here: a run of deflated bytes is a raw deflate stream of
 * its own, ended with a sync flush (byte-aligned, not final, and referring to no byte before it), stored runs are
 * stored blocks, and the stream ends with an empty final block; the trailer has the CRC-32 and length of the whole.
 * That is one ordinary gzip member holding one ordinary tar: any gunzip and any tar read it.
 *
 * Closing the stream (a client that goes away) makes every pending and later write reject.
 */
export class TarGzipWriter {
  readonly stream = new PassThrough({ highWaterMark: GATHER_BYTES });
  private crc = 0;
  private length = 0;
  private gathered: Buffer[] = [];
  private gatheredBytes = 0;
  private closed = false;

  constructor() {
    this.stream.once('close', () => (this.closed = true));
    this.stream.write(GZIP_HEADER);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Deflate, unless a trial compression of the first bytes saves less than a tenth (random or compressed data). */
  static compressionFor(bytes: Buffer): Compression {
    if (bytes.length < 4 * PROBE_BYTES) return 'deflate';
    const probe = bytes.subarray(0, PROBE_BYTES);
    return deflateRawSync(probe, { level: 1 }).length > probe.length * 0.9 ? 'store' : 'deflate';
  }

  /** One whole file. */
  async file(name: string, bytes: Buffer, compression: Compression = 'deflate'): Promise<void> {
    await this.begin(name, bytes.length);
    await this.data(bytes, compression);
    await this.end(bytes.length);
  }

  /** A file's header: exactly `size` bytes of data follow (`data`, any number of times), then `end(size)`. */
  async begin(name: string, size: number): Promise<void> {
    await this.deflate(header(name, size));
  }

  async data(bytes: Buffer, compression: Compression = 'deflate'): Promise<void> {
    if (compression === 'deflate') await this.deflate(bytes);
    else await this.store(bytes);
  }

  /** Pads the file's data to the tar block size. */
  async end(size: number): Promise<void> {
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad) await this.deflate(ZEROS.subarray(0, pad));
  }

  /** The end-of-archive blocks, the final deflate block and the gzip trailer, then the end of the stream. */
  async finish(): Promise<void> {
    await this.deflate(ZEROS);
    await this.flushGathered();
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(this.crc >>> 0, 0);
    trailer.writeUInt32LE(this.length % 2 ** 32, 4);
    await this.write(Buffer.concat([FINAL_BLOCK, trailer]));
    this.stream.end();
  }

  private async deflate(bytes: Buffer): Promise<void> {
    if (this.closed) throw new Error('the package stream was closed');
    if (bytes.length < GATHER_BYTES) {
      // Copied: a caller may reuse its buffer once this returns.
      this.gathered.push(Buffer.from(bytes));
      this.gatheredBytes += bytes.length;
      if (this.gatheredBytes >= GATHER_BYTES) await this.flushGathered();
      return;
    }
    await this.flushGathered();
    for (let at = 0; at < bytes.length; at += DEFLATE_SLICE) await this.deflateRun(bytes.subarray(at, at + DEFLATE_SLICE));
  }

  private async flushGathered(): Promise<void> {
    if (!this.gatheredBytes) return;
    const bytes = this.gathered.length === 1 ? this.gathered[0] : Buffer.concat(this.gathered, this.gatheredBytes);
    this.gathered = [];
    this.gatheredBytes = 0;
    await this.deflateRun(bytes);
  }

  /** A raw deflate stream of its own, sync-flushed: ends byte-aligned, without a final block. */
  private async deflateRun(bytes: Buffer): Promise<void> {
    this.account(bytes);
    await this.write(deflateRawSync(bytes, { level: 1, finishFlush: constants.Z_SYNC_FLUSH }));
  }

  /** Stored blocks (after a sync flush the stream is byte-aligned, where a stored block's header begins). */
  private async store(bytes: Buffer): Promise<void> {
    await this.flushGathered();
    for (let at = 0; at < bytes.length; at += DEFLATE_SLICE) {
      const slice = bytes.subarray(at, at + DEFLATE_SLICE);
      this.account(slice);
      const parts: Buffer[] = [];
      for (let i = 0; i < slice.length; i += STORED_MAX) {
        const n = Math.min(STORED_MAX, slice.length - i);
        const head = Buffer.alloc(5);
        head.writeUInt16LE(n, 1);
        head.writeUInt16LE(~n & 0xffff, 3);
        parts.push(head, slice.subarray(i, i + n));
      }
      await this.write(Buffer.concat(parts));
    }
  }

  private account(bytes: Buffer): void {
    this.crc = crc32(bytes, this.crc);
    this.length += bytes.length;
  }

  private write(bytes: Buffer): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the package stream was closed'));
    if (this.stream.write(bytes)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onDrain = () => {
        this.stream.off('close', onClose);
        resolve();
      };
      const onClose = () => {
        this.stream.off('drain', onDrain);
        reject(new Error('the package stream was closed'));
      };
      this.stream.once('drain', onDrain);
      this.stream.once('close', onClose);
    });
  }
}

/**
 * A ustar header: the name in its 100-byte field, or split at a '/' over the 155-byte prefix field and the name
 * field (what plain ustar readers know); a pax header first when neither fits (or the name is not ASCII).
 */
export function header(name: string, size: number): Buffer {
  if (/^[\x20-\x7e]*$/.test(name)) {
    if (name.length <= 100) return ustar(Buffer.from(name, 'latin1'), size, '0');
    for (let cut = name.indexOf('/'); cut >= 0 && cut <= 155; cut = name.indexOf('/', cut + 1)) {
      const tail = name.length - cut - 1;
      if (tail > 0 && tail <= 100) return ustar(Buffer.from(name.slice(cut + 1), 'latin1'), size, '0', Buffer.from(name.slice(0, cut), 'latin1'));
    }
  }
  // The pax record "<length> path=<name>\n", whose <length> counts the whole record, its own digits included.
  const rest = Buffer.byteLength(` path=${name}\n`);
  let length = rest + 1;
  while (String(length).length + rest !== length) length = String(length).length + rest;
  const record = Buffer.from(`${length} path=${name}\n`, 'utf8');
  const pad = (BLOCK - (record.length % BLOCK)) % BLOCK;
  const fallback = Buffer.from(name.replace(/[^\x20-\x7e]/g, '_').slice(-100), 'latin1');
  return Buffer.concat([ustar(Buffer.from('PaxHeader', 'latin1'), record.length, 'x'), record, Buffer.alloc(pad), ustar(fallback, size, '0')]);
}

function ustar(name: Buffer, size: number, type: '0' | 'x', prefix?: Buffer): Buffer {
  const h = Buffer.alloc(BLOCK);
  name.copy(h, 0, 0, Math.min(name.length, 100));
  prefix?.copy(h, 345, 0, Math.min(prefix.length, 155));
  const octal = (value: number, at: number, width: number) => h.write(value.toString(8).padStart(width - 1, '0') + '\0', at, width, 'latin1');
  octal(0o644, 100, 8); // mode
  octal(0, 108, 8); // uid
  octal(0, 116, 8); // gid
  octal(size, 124, 12);
  octal(0, 136, 12); // mtime: the epoch
  h.write(type, 156, 1, 'latin1');
  h.write('ustar\u000000', 257, 8, 'latin1'); // magic "ustar\0", version "00"
  // The checksum: the sum of the header's bytes with its own field counted as spaces.
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'latin1');
  return h;
}
