/** A minimal DER reader: enough of X.509 / PKCS#10 for the fields policies read (names, extensions, algorithms). */

export interface Node {
  cls: number; // 0 universal, 1 application, 2 context, 3 private
  tag: number;
  constructed: boolean;
  start: number; // start of the header
  body: number; // start of the contents
  end: number; // end of the contents
}

export class DerError extends Error {}

export function read(buf: Buffer, pos: number): Node {
  if (pos + 2 > buf.length) throw new DerError('truncated DER');
  const id = buf[pos];
  let p = pos + 1;
  let tag = id & 0x1f;
  if (tag === 0x1f) {
    tag = 0;
    let b: number;
    do {
      b = buf[p++];
      tag = (tag << 7) | (b & 0x7f);
    } while (b & 0x80);
  }
  let len = buf[p++];
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new DerError('unsupported DER length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[p++];
  }
  if (p + len > buf.length) throw new DerError('truncated DER');
  return { cls: id >> 6, tag, constructed: (id & 0x20) !== 0, start: pos, body: p, end: p + len };
}

export function children(buf: Buffer, n: Node): Node[] {
  const out: Node[] = [];
  for (let p = n.body; p < n.end; ) {
    const c = read(buf, p);
    out.push(c);
    p = c.end;
  }
  return out;
}

export function bytes(buf: Buffer, n: Node): Buffer {
  return buf.subarray(n.body, n.end);
}

export function whole(buf: Buffer, n: Node): Buffer {
  return buf.subarray(n.start, n.end);
}

export function oid(buf: Buffer, n: Node): string {
  const b = bytes(buf, n);
  const parts: number[] = [];
  let v = 0;
  for (let i = 0; i < b.length; i++) {
    v = v * 128 + (b[i] & 0x7f);
    if (!(b[i] & 0x80)) {
      if (parts.length === 0) {
        const first = v < 80 ? Math.floor(v / 40) : 2;
        parts.push(first, v - first * 40);
      } else parts.push(v);
      v = 0;
    }
  }
  return parts.join('.');
}

/** Text of a string-typed value (UTF8String, PrintableString, IA5String, BMPString, ...). */
export function text(buf: Buffer, n: Node): string {
  const b = bytes(buf, n);
  if (n.tag === 30) {
    let s = '';
    for (let i = 0; i + 1 < b.length; i += 2) s += String.fromCharCode((b[i] << 8) | b[i + 1]);
    return s;
  }
  return n.tag === 12 ? b.toString('utf8') : b.toString('latin1');
}

export function integer(buf: Buffer, n: Node): bigint {
  const b = bytes(buf, n);
  if (b.length === 0) return 0n;
  let v = BigInt('0x' + b.toString('hex'));
  if (b[0] & 0x80) v -= 1n << BigInt(b.length * 8);
  return v;
}
