/**
 * A push parser for `multipart/form-data` bodies (RFC 7578 over RFC 2046): feed it the body in chunks of any
 * size and it calls back with each part's headers, its content (as slices of the chunks, not copies) and its
 * end. It keeps no more than one delimiter's length of a chunk between calls, so it streams bodies of any size
 * in constant memory. It is synchronous and knows nothing of HTTP streams: the caller reads the request,
 * decides what a part is allowed to be and how big, and pauses the source when its own sink is full.
 */

import { isUtf8 } from 'node:buffer';

export class MultipartError extends Error {
  constructor(
    message: string,
    /** The part the error is about, by name, when it is known (a name that is not valid UTF-8 is not). */
    readonly part?: string,
  ) {
    super(message);
    this.name = 'MultipartError';
  }
}

export interface MultipartPart {
  /** The `name` parameter of `Content-Disposition: form-data` (empty string when absent). */
  name: string;
  /** The file name (`filename*` preferred to `filename`), or null for a plain field. */
  filename: string | null;
  /** The part's `Content-Type`, or null when it has none. */
  contentType: string | null;
}

export interface MultipartCallbacks {
  partBegin(part: MultipartPart): void;
  /**
   * A slice of the part's content: a view of a chunk given to `write` (or of the parser's own copy of a held-back
   * tail joined to the next chunk), not a copy. The parser never writes into a buffer it has sliced, so a slice
   * keeps its bytes for as long as the caller leaves the chunks it wrote unchanged.
   */
  partData(data: Buffer): void;
  partEnd(): void;
}

export interface MultipartLimits {
  /** Bytes of one part's header block (default 16 KiB). */
  headerBytes?: number;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const DEFAULT_HEADER_BYTES = 16 * 1024;

const enum State {
  /** Before the first delimiter (the preamble is ignored). */
  Preamble,
  /** Just after a delimiter: `--` (the end) or transport padding and CRLF (a part follows). */
  AfterDelimiter,
  Headers,
  Body,
  /** After the close delimiter: the epilogue is ignored. */
  Done,
}

/** The boundary of a `multipart/form-data` Content-Type header, or null when there is none or it is malformed. */
export function boundaryOf(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const match = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.){1,200})"|([^\s;"]{1,200}))/i.exec(contentType);
  if (!match) return null;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
}

export class MultipartParser {
  /** `\r\n--boundary`: every delimiter, the first one included (the body is read as if it began with CRLF). */
  private readonly delimiter: Buffer;
  private readonly headerLimit: number;
  private state = State.Preamble;
  /** Bytes held back from the previous chunk: a possible start of a delimiter, or an incomplete header block. */
  private carry: Buffer = CRLF;
  private inPart = false;

  constructor(
    boundary: string,
    private readonly callbacks: MultipartCallbacks,
    limits: MultipartLimits = {},
  ) {
    if (!boundary) throw new MultipartError('Multipart: Boundary not found');
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
    this.headerLimit = limits.headerBytes ?? DEFAULT_HEADER_BYTES;
  }

  /** True once the close delimiter has been read. */
  get done(): boolean {
    return this.state === State.Done;
  }

  write(chunk: Buffer): void {
    if (this.state === State.Done || !chunk.length) return;
    let buf = chunk;
    let pos = 0;
    if (this.carry === CRLF && this.opensWithDelimiter(chunk)) {
      // The body starts with its first delimiter, as clients send it: read on past it, without copying the chunk
      // behind the CRLF the body is read as if it began with.
      pos = this.delimiter.length - CRLF.length;
      this.state = State.AfterDelimiter;
    } else if (this.carry.length) {
      buf = Buffer.concat([this.carry, chunk]);
    }
    this.carry = EMPTY;
    while (pos < buf.length && (this.state as State) !== State.Done) {
      switch (this.state) {
        case State.Preamble: {
          const at = buf.indexOf(this.delimiter, pos);
          if (at < 0) {
            this.hold(buf, Math.max(pos, buf.length - (this.delimiter.length - 1)));
            return;
          }
          pos = at + this.delimiter.length;
          this.state = State.AfterDelimiter;
          break;
        }
        case State.AfterDelimiter: {
          // `--` closes the body; otherwise optional spaces/tabs (transport padding), then CRLF.
          let i = pos;
          if (buf[i] === 0x2d) {
            if (i + 1 >= buf.length) return this.hold(buf, pos);
            if (buf[i + 1] !== 0x2d) throw new MultipartError('Multipart: malformed delimiter line');
            this.endPart();
            this.state = State.Done;
            return;
          }
          while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x09)) i++;
          if (i + 1 >= buf.length) {
            if (buf.length - pos > 256) throw new MultipartError('Multipart: malformed delimiter line');
            return this.hold(buf, pos);
          }
          if (buf[i] !== 0x0d || buf[i + 1] !== 0x0a) throw new MultipartError('Multipart: malformed delimiter line');
          this.endPart();
          // Keep the CRLF: an empty header block is then just CRLF CRLF, found like any other.
          pos = i;
          this.state = State.Headers;
          break;
        }
        case State.Headers: {
          const at = buf.indexOf(HEADER_END, pos);
          if (at < 0) {
            if (buf.length - pos > this.headerLimit) throw new MultipartError('Multipart: part headers are too large');
            return this.hold(buf, pos);
          }
          if (at - pos > this.headerLimit) throw new MultipartError('Multipart: part headers are too large');
          // Read byte for byte (latin1): the header grammar is ASCII, and each value is then decoded as UTF-8
          // strictly, so bytes that are not UTF-8 are refused instead of turned into U+FFFD.
          const part = parsePartHeaders(buf.toString('latin1', pos + 2, at), true);
          this.inPart = true;
          this.callbacks.partBegin(part);
          pos = at + HEADER_END.length;
          this.state = State.Body;
          break;
        }
        case State.Body: {
          const at = buf.indexOf(this.delimiter, pos);
          if (at >= 0) {
            if (at > pos) this.callbacks.partData(buf.subarray(pos, at));
            pos = at + this.delimiter.length;
            this.state = State.AfterDelimiter;
            break;
          }
          // Hold back only a tail that could still grow into a delimiter.
          const keep = partialDelimiterAt(buf, Math.max(pos, buf.length - (this.delimiter.length - 1)), this.delimiter);
          if (keep > pos) this.callbacks.partData(buf.subarray(pos, keep));
          return this.hold(buf, keep);
        }
      }
    }
  }

  /** Whether `chunk` begins with the delimiter without its CRLF (`--boundary`). */
  private opensWithDelimiter(chunk: Buffer): boolean {
    const dashBoundary = this.delimiter.length - CRLF.length;
    return chunk.length >= dashBoundary && chunk.compare(this.delimiter, CRLF.length, this.delimiter.length, 0, dashBoundary) === 0;
  }

  /** The body ended: throws unless the close delimiter was read. */
  end(): void {
    if (this.state !== State.Done) throw new MultipartError('Unexpected end of form');
  }

  private endPart(): void {
    if (this.inPart) {
      this.inPart = false;
      this.callbacks.partEnd();
    }
  }

  /** Keeps buf[from..] (copied: it is small) for the next write. */
  private hold(buf: Buffer, from: number): void {
    this.carry = from < buf.length ? Buffer.from(buf.subarray(from)) : EMPTY;
  }
}

const EMPTY = Buffer.alloc(0);

/** The first index in [from, buf.length) where the rest of buf is a prefix of the delimiter (buf.length if none). */
function partialDelimiterAt(buf: Buffer, from: number, delimiter: Buffer): number {
  for (let i = from; i < buf.length; i++) {
    if (buf[i] !== delimiter[0]) continue;
    let j = 1;
    while (i + j < buf.length && buf[i + j] === delimiter[j]) j++;
    if (i + j === buf.length) return i;
  }
  return buf.length;
}

/**
 * Parses a part's header block (lines without the final blank one). With `bytes`, `block` holds the raw bytes as
 * latin1 characters, and the values (name, file name, type) must be valid UTF-8; without, it is text already.
 */
export function parsePartHeaders(block: string, bytes = false): MultipartPart {
  let disposition: string | null = null;
  let contentType: string | null = null;
  for (const line of block.split('\r\n')) {
    if (!line) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartError('Multipart: malformed part header');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') disposition = value;
    else if (name === 'content-type') contentType = value || null;
  }
  if (disposition === null) throw new MultipartError('Multipart: a part has no Content-Disposition header');
  const { type, params } = parseHeaderParams(disposition);
  if (type !== 'form-data') throw new MultipartError(`Multipart: Content-Disposition '${type}' is not form-data`);
  const name = utf8Value(params.get('name') ?? '', bytes, 'name', undefined);
  const extended = params.get('filename*');
  const plain = params.get('filename');
  const filename = extended !== undefined ? decodeExtendedValue(extended, name) : plain === undefined ? null : utf8Value(plain, bytes, 'file name', name);
  return { name, filename, contentType: contentType === null ? null : utf8Value(contentType, bytes, 'content type', name) };
}

const NON_ASCII = /[^\x00-\x7f]/;

/** A header value read byte for byte (latin1), as the UTF-8 text it must be. */
function utf8Value(value: string, bytes: boolean, what: string, part: string | undefined): string {
  if (!bytes || !NON_ASCII.test(value)) return value;
  const raw = Buffer.from(value, 'latin1');
  if (!isUtf8(raw)) throw new MultipartError(`Multipart: the part's ${what} is not valid UTF-8`, part);
  return raw.toString('utf8');
}

/** `type; a=token; b="quoted \" string"` -> the lowercased type and the parameters (names lowercased). */
function parseHeaderParams(value: string): { type: string; params: Map<string, string> } {
  const params = new Map<string, string>();
  const semi = value.indexOf(';');
  const type = (semi < 0 ? value : value.slice(0, semi)).trim().toLowerCase();
  let i = semi < 0 ? value.length : semi + 1;
  while (i < value.length) {
    while (i < value.length && (value[i] === ' ' || value[i] === '\t' || value[i] === ';')) i++;
    if (i >= value.length) break;
    const eq = value.indexOf('=', i);
    if (eq < 0) throw new MultipartError('Multipart: malformed Content-Disposition parameter');
    const key = value.slice(i, eq).trim().toLowerCase();
    i = eq + 1;
    while (value[i] === ' ' || value[i] === '\t') i++;
    let v = '';
    if (value[i] === '"') {
      i++;
      let closed = false;
      while (i < value.length) {
        const c = value[i++];
        if (c === '\\' && i < value.length) v += value[i++];
        else if (c === '"') {
          closed = true;
          break;
        } else v += c;
      }
      if (!closed) throw new MultipartError('Multipart: unterminated quoted parameter');
    } else {
      const end = value.indexOf(';', i);
      v = (end < 0 ? value.slice(i) : value.slice(i, end)).trim();
      i = end < 0 ? value.length : end;
    }
    if (key && !params.has(key)) params.set(key, v);
  }
  return { type, params };
}

/**
 * RFC 8187 `charset'lang'percent-encoded` (UTF-8 and ISO-8859-1). The value is ASCII with `%XX` escapes: a raw
 * non-ASCII character, a `%` without two hex digits, or escaped bytes that are not UTF-8 (for UTF-8) are refused,
 * never guessed at.
 */
function decodeExtendedValue(value: string, part: string): string {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value);
  if (!match) throw new MultipartError('Multipart: malformed extended parameter', part);
  const charset = match[1].toLowerCase();
  const utf8 = charset === 'utf-8' || charset === 'utf8' || charset === '';
  if (!utf8 && charset !== 'iso-8859-1' && charset !== 'latin1') throw new MultipartError(`Multipart: unsupported charset '${match[1]}'`, part);
  const text = match[2];
  if (NON_ASCII.test(text)) throw new MultipartError(`Multipart: the part's file name* has characters that are not percent-encoded`, part);
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '%') {
      bytes.push(text.charCodeAt(i));
      continue;
    }
    if (!/^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) throw new MultipartError(`Multipart: the part's file name* has a malformed % escape`, part);
    bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
    i += 2;
  }
  const raw = Buffer.from(bytes);
  if (!utf8) return raw.toString('latin1');
  if (!isUtf8(raw)) throw new MultipartError(`Multipart: the part's file name* is not valid UTF-8`, part);
  return raw.toString('utf8');
}
