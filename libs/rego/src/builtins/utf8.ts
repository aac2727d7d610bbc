/**
 * Go strings are UTF-8 bytes and OPA works on runes; JS strings are UTF-16. These helpers count and index by code
 * point, and decode bytes the way Go converts invalid UTF-8 (one U+FFFD per invalid byte).
 */

/** Number of code points (Go's utf8.RuneCountInString for valid text). */
export function runeCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** True if the string has no astral characters (then code units = runes). */
export function isBmp(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return false;
  }
  return true;
}

export function runes(s: string): string[] {
  return Array.from(s);
}

/** Decodes UTF-8 as Go does: each byte of an invalid sequence becomes one U+FFFD. */
export function decodeUtf8Go(b: Uint8Array): string {
  let i = 0;
  const n = b.length;
  let chunkStart = 0;
  const parts: string[] = [];
  const flush = (end: number) => {
    if (end > chunkStart) parts.push(Buffer.from(b.buffer, b.byteOffset + chunkStart, end - chunkStart).toString('utf8'));
  };
  while (i < n) {
    const c = b[i];
    let len = 0;
    if (c < 0x80) len = 1;
    else if (c >= 0xc2 && c <= 0xdf) len = 2;
    else if (c >= 0xe0 && c <= 0xef) len = 3;
    else if (c >= 0xf0 && c <= 0xf4) len = 4;
    let ok = len > 0 && i + len <= n;
    if (ok && len > 1) {
      const c1 = b[i + 1];
      let lo = 0x80;
      let hi = 0xbf;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f;
      else if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f;
      if (c1 < lo || c1 > hi) ok = false;
      for (let k = 2; ok && k < len; k++) if ((b[i + k] & 0xc0) !== 0x80) ok = false;
    }
    if (ok) {
      i += len;
    } else {
      flush(i);
      parts.push('\ufffd');
      i += 1;
      chunkStart = i;
    }
  }
  flush(n);
  return parts.join('');
}

/** True if the bytes are valid UTF-8 (decoding and re-encoding gives the same bytes). */
export function isValidUtf8(b: Uint8Array): boolean {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.length);
  return Buffer.from(buf.toString('utf8'), 'utf8').equals(buf);
}
