import type { FileSink } from './file-sink';
import { EvidenceFormatError } from './evidence-format-error';

const BLOCK = 512;
/** PAX and GNU long-name records are small; anything larger is not one. */
const MAX_META_BYTES = 64 * 1024;

/** Whether a first block is a tar header: its checksum matches (the `ustar` magic is not in every tar). */
export function looksLikeTar(first: Buffer): boolean {
  if (first.length < BLOCK) return false;
  const stored = parseOctal(first.subarray(148, 156));
  return stored !== null && stored === checksum(first.subarray(0, BLOCK));
}

/**
 * A streaming reader of the tar format the CLI writes (Go's archive/tar: ustar with PAX records for long
 * names): it holds at most one 512-byte block and the current small metadata record, and streams each regular
 * file's bytes into the sink `open(name)` gives (or skips them).
 */
export class TarReader {
  private pending: Buffer = Buffer.alloc(0);
  private state: 'header' | 'body' | 'meta' | 'padding' | 'done' = 'header';
  private remaining = 0;
  private padding = 0;
  private sink: FileSink | null = null;
  private meta: { kind: 'pax' | 'gnu-name' | 'skip'; chunks: Buffer[] } | null = null;
  private nextName: string | null = null;
  private zeroBlocks = 0;

  constructor(private readonly open: (name: string) => FileSink | null) {}

  write(chunk: Buffer): void {
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (data.length) {
      if (this.state === 'done') return;
      if (this.state === 'header') {
        if (data.length < BLOCK) {
          this.pending = Buffer.from(data);
          return;
        }
        this.header(data.subarray(0, BLOCK));
        data = data.subarray(BLOCK);
      } else if (this.state === 'body' || this.state === 'meta') {
        const take = Math.min(this.remaining, data.length);
        const part = data.subarray(0, take);
        if (this.state === 'body') this.sink?.write(part);
        else this.meta!.chunks.push(Buffer.from(part));
        this.remaining -= take;
        data = data.subarray(take);
        if (this.remaining === 0) this.endEntry();
      } else {
        const take = Math.min(this.padding, data.length);
        this.padding -= take;
        data = data.subarray(take);
        if (this.padding === 0) this.state = 'header';
      }
    }
  }

  end(): void {
    if (this.state === 'body' || this.state === 'meta' || this.pending.length) {
      throw new EvidenceFormatError('the attached tar archive is truncated');
    }
  }

  private header(block: Buffer): void {
    if (block.every((b) => b === 0)) {
      if (++this.zeroBlocks === 2) this.state = 'done';
      return;
    }
    this.zeroBlocks = 0;
    const stored = parseOctal(block.subarray(148, 156));
    if (stored === null || stored !== checksum(block)) throw new EvidenceFormatError('the attached tar archive has a corrupt header');
    const size = parseOctal(block.subarray(124, 136));
    if (size === null) throw new EvidenceFormatError('the attached tar archive has an entry of unreadable size');
    const type = String.fromCharCode(block[156] || 0x30);
    const ustar = block.subarray(257, 262).toString('latin1') === 'ustar';
    const prefix = ustar ? cString(block.subarray(345, 500)) : '';
    const name = this.nextName ?? (prefix ? `${prefix}/${cString(block.subarray(0, 100))}` : cString(block.subarray(0, 100)));
    this.remaining = size;
    this.padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if (type === 'x' || type === 'L' || type === 'g') {
      if (size > MAX_META_BYTES) throw new EvidenceFormatError('the attached tar archive has an oversized metadata record');
      this.meta = { kind: type === 'x' ? 'pax' : type === 'L' ? 'gnu-name' : 'skip', chunks: [] };
      this.state = 'meta';
    } else {
      this.nextName = null;
      this.sink = type === '0' || type === '7' ? this.open(name) : null;
      this.state = 'body';
    }
    if (size === 0) this.endEntry();
  }

  private endEntry(): void {
    if (this.state === 'meta') {
      const text = Buffer.concat(this.meta!.chunks).toString('utf8');
      if (this.meta!.kind === 'gnu-name') this.nextName = text.replace(/\0+$/, '');
      if (this.meta!.kind === 'pax') {
        const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(text);
        if (path) this.nextName = path[1];
      }
      this.meta = null;
    } else {
      this.sink?.end();
      this.sink = null;
    }
    this.state = this.padding ? 'padding' : 'header';
  }
}

function cString(bytes: Buffer): string {
  const nul = bytes.indexOf(0);
  return bytes.subarray(0, nul < 0 ? bytes.length : nul).toString('utf8');
}

function parseOctal(field: Buffer): number | null {
  const text = cString(field).trim();
  if (!/^[0-7]+$/.test(text)) return null;
  return parseInt(text, 8);
}

/** The header checksum: every byte summed with the checksum field read as eight spaces. */
function checksum(block: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i];
  return sum;
}
