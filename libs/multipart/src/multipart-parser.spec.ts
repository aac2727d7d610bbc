import { randomBytes } from 'node:crypto';
import { boundaryOf, MultipartError, MultipartParser, MultipartPart } from './index';

interface Parsed {
  part: MultipartPart;
  content: Buffer;
}

/** Parses `body` fed in the given chunk sizes (cycled), collecting each part whole. */
function parse(boundary: string, body: Buffer, chunkSizes: number[] = [body.length]): Parsed[] {
  const parts: Parsed[] = [];
  let current: { part: MultipartPart; chunks: Buffer[] } | null = null;
  let open = false;
  const parser = new MultipartParser(boundary, {
    partBegin(part) {
      expect(open).toBe(false);
      open = true;
      current = { part, chunks: [] };
    },
    partData(data) {
      expect(open).toBe(true);
      // Kept as given, not copied: a slice must keep its bytes after later writes (callers keep them until the part ends).
      current!.chunks.push(data);
    },
    partEnd() {
      expect(open).toBe(true);
      open = false;
      parts.push({ part: current!.part, content: Buffer.concat(current!.chunks) });
    },
  });
  let pos = 0;
  let k = 0;
  while (pos < body.length) {
    const size = Math.max(1, chunkSizes[k++ % chunkSizes.length]);
    parser.write(body.subarray(pos, pos + size));
    pos += size;
  }
  parser.end();
  expect(open).toBe(false);
  return parts;
}

function form(boundary: string, parts: Array<{ headers: string; content: Buffer | string }>, extra: { preamble?: string; epilogue?: string } = {}): Buffer {
  const out: Buffer[] = [];
  if (extra.preamble) out.push(Buffer.from(extra.preamble + '\r\n'));
  for (const p of parts) out.push(Buffer.from(`--${boundary}\r\n${p.headers}\r\n\r\n`), Buffer.from(p.content), Buffer.from('\r\n'));
  out.push(Buffer.from(`--${boundary}--`));
  if (extra.epilogue !== undefined) out.push(Buffer.from('\r\n' + extra.epilogue));
  return Buffer.concat(out);
}

const B = '----formboundary7MA4YWxkTrZu0gW';

describe('MultipartParser', () => {
  const file = randomBytes(3000);
  // content that keeps almost forming a delimiter
  const tricky = Buffer.from(`line\r\n--${B.slice(0, 10)}x\r\n-\r\n--${B.slice(0, -1)}\r\r\n--`);
  const body = form(
    B,
    [
      { headers: 'Content-Disposition: form-data; name="data_json"', content: '{"attestation_name":"unit-test","is_compliant":true}' },
      { headers: 'Content-Disposition: form-data; name="attachment_file"; filename="report.bin"\r\nContent-Type: application/octet-stream', content: file },
      { headers: 'content-disposition: form-data; name="tricky"', content: tricky },
      { headers: 'Content-Disposition: form-data; name="empty"', content: '' },
    ],
    { preamble: 'This is the preamble.', epilogue: 'and an epilogue' },
  );

  const expectParts = (parts: Parsed[]) => {
    expect(parts.map((p) => p.part)).toEqual([
      { name: 'data_json', filename: null, contentType: null },
      { name: 'attachment_file', filename: 'report.bin', contentType: 'application/octet-stream' },
      { name: 'tricky', filename: null, contentType: null },
      { name: 'empty', filename: null, contentType: null },
    ]);
    expect(parts[0].content.toString()).toBe('{"attestation_name":"unit-test","is_compliant":true}');
    expect(parts[1].content.equals(file)).toBe(true);
    expect(parts[2].content.equals(tricky)).toBe(true);
    expect(parts[3].content.length).toBe(0);
  };

  it('parses a body given in one chunk', () => {
    expectParts(parse(B, body));
  });

  it('gives the same parts however the body is split into two chunks', () => {
    for (let cut = 1; cut < body.length; cut++) {
      const parts = parse(B, body, [cut, body.length]);
      expect(parts.length).toBe(4);
      expect(parts[1].content.equals(file)).toBe(true);
      expect(parts[2].content.equals(tricky)).toBe(true);
    }
    expectParts(parse(B, body, [1234, body.length]));
  });

  it('parses a body fed a byte at a time and in odd-sized chunks', () => {
    expectParts(parse(B, body, [1]));
    expectParts(parse(B, body, [7, 3, 64, 1, 200]));
  });

  it('gives the same parts from a body that opens with its delimiter (as clients send it), however it is split', () => {
    const bare = body.subarray(body.indexOf(`--${B}`));
    expect(bare.subarray(0, 2).toString()).toBe('--');
    for (let cut = 1; cut < 200; cut++) expectParts(parse(B, bare, [cut, bare.length]));
    expectParts(parse(B, bare, [B.length + 2, 1, bare.length]));
    expectParts(parse(B, bare, [1]));
    // a first line that only begins like the delimiter is preamble, not a part
    const near = Buffer.concat([Buffer.from(`--${B.slice(0, -1)}\r\n`), bare]);
    expectParts(parse(B, near));
    expectParts(parse(B, near, [B.length + 1, near.length]));
  });

  it('accepts a body that starts with the delimiter, transport padding and no epilogue', () => {
    const raw = Buffer.from(`--${B}  \t\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue\r\n--${B}--`);
    const parts = parse(B, raw);
    expect(parts.map((p) => [p.part.name, p.content.toString()])).toEqual([['a', 'value']]);
  });

  it('reads quoted parameters with escapes and an RFC 8187 file name', () => {
    const raw = form(B, [
      { headers: 'Content-Disposition: form-data; name="quo\\"ted"; filename="a \\"b\\".txt"', content: 'x' },
      { headers: `Content-Disposition: form-data; name=plain; filename="fallback.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`, content: 'y' },
      { headers: 'Content-Disposition: form-data; name="utf8"; filename="na\u00efve.txt"', content: 'z' },
    ]);
    expect(parse(B, raw).map((p) => p.part)).toEqual([
      { name: 'quo"ted', filename: 'a "b".txt', contentType: null },
      { name: 'plain', filename: 'résumé.pdf', contentType: null },
      { name: 'utf8', filename: 'naïve.txt', contentType: null },
    ]);
  });

  it('refuses header values that are not UTF-8, naming the part, instead of storing U+FFFD', () => {
    const withHeaders = (headers: Buffer) => Buffer.concat([Buffer.from(`--${B}\r\n`), headers, Buffer.from(`\r\n\r\nx\r\n--${B}--`)]);
    const latin1Name = withHeaders(Buffer.concat([Buffer.from('Content-Disposition: form-data; name="attachment_file"; filename="r'), Buffer.from([0xe9]), Buffer.from('sum.txt"')]));
    for (const sizes of [[latin1Name.length], [1], [7]]) {
      expect(() => parse(B, latin1Name, sizes)).toThrow(new MultipartError("Multipart: the part's file name is not valid UTF-8", 'attachment_file'));
    }
    expect(() => parse(B, latin1Name)).toThrow(expect.objectContaining({ part: 'attachment_file' }));
    const badPartName = withHeaders(Buffer.concat([Buffer.from('Content-Disposition: form-data; name="a'), Buffer.from([0xff]), Buffer.from('"')]));
    expect(() => parse(B, badPartName)).toThrow(expect.objectContaining({ message: "Multipart: the part's name is not valid UTF-8", part: undefined }));
    const badType = withHeaders(Buffer.concat([Buffer.from('Content-Disposition: form-data; name="f"; filename="a"\r\nContent-Type: text/'), Buffer.from([0xc3])]));
    expect(() => parse(B, badType)).toThrow(expect.objectContaining({ message: "Multipart: the part's content type is not valid UTF-8", part: 'f' }));
  });

  it('refuses an RFC 8187 file name with raw non-ASCII, a malformed % escape, or escaped bytes that are not UTF-8', () => {
    const withName = (ext: string) => form(B, [{ headers: `Content-Disposition: form-data; name="f"; filename*=${ext}`, content: 'x' }]);
    expect(() => parse(B, withName("UTF-8''\u0151r\u00fclt.txt"))).toThrow(expect.objectContaining({ message: expect.stringContaining('not percent-encoded'), part: 'f' }));
    for (const bad of ["UTF-8''%ZZ.txt", "UTF-8''a%C", "UTF-8''a%"]) {
      expect(() => parse(B, withName(bad))).toThrow(expect.objectContaining({ message: expect.stringContaining('malformed % escape'), part: 'f' }));
    }
    expect(() => parse(B, withName("UTF-8''r%E9sum%E9.txt"))).toThrow(expect.objectContaining({ message: expect.stringContaining('not valid UTF-8'), part: 'f' }));
    expect(parse(B, withName("ISO-8859-1''r%E9sum%E9.txt"))[0].part.filename).toBe('résumé.txt');
    expect(parse(B, withName("utf-8'en'%C5%91r%C3%BClt.txt"))[0].part.filename).toBe('őrült.txt');
  });

  it('rejects a body without its close delimiter', () => {
    const close = body.indexOf(`\r\n--${B}--`);
    for (const cut of [close, close + 4 + B.length, close + 5 + B.length]) {
      expect(() => parse(B, body.subarray(0, cut))).toThrow(new MultipartError('Unexpected end of form'));
    }
    expect(() => parse(B, body.subarray(0, close + 6 + B.length))).not.toThrow();
    expect(() => parse(B, Buffer.from('no delimiter at all'))).toThrow('Unexpected end of form');
  });

  it('rejects malformed parts', () => {
    const noDisposition = Buffer.from(`--${B}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${B}--`);
    expect(() => parse(B, noDisposition)).toThrow('no Content-Disposition');
    const notFormData = Buffer.from(`--${B}\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--${B}--`);
    expect(() => parse(B, notFormData)).toThrow("'attachment' is not form-data");
    const badLine = Buffer.from(`--${B}garbage\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--${B}--`);
    expect(() => parse(B, badLine)).toThrow('malformed delimiter line');
    const hugeHeaders = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="a"\r\nX-Filler: ${'f'.repeat(20000)}\r\n\r\nx\r\n--${B}--`);
    expect(() => parse(B, hugeHeaders)).toThrow('headers are too large');
    expect(() => parse(B, hugeHeaders, [100])).toThrow('headers are too large');
  });

  it('ignores whatever follows the close delimiter', () => {
    const raw = Buffer.concat([form(B, [{ headers: 'Content-Disposition: form-data; name="a"', content: '1' }]), Buffer.from(`\r\n--${B}\r\nnot a part`)]);
    expect(parse(B, raw).map((p) => p.part.name)).toEqual(['a']);
  });
});

describe('boundaryOf', () => {
  it('reads token and quoted boundaries', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc123')).toBe('abc123');
    expect(boundaryOf('multipart/form-data; charset=utf-8; BOUNDARY="a b;c"')).toBe('a b;c');
    expect(boundaryOf('multipart/form-data;boundary=----x; charset=utf-8')).toBe('----x');
  });

  it('gives null when there is none', () => {
    expect(boundaryOf(undefined)).toBeNull();
    expect(boundaryOf('multipart/form-data')).toBeNull();
    expect(boundaryOf('multipart/form-data; boundary=')).toBeNull();
    expect(boundaryOf('multipart/form-data; boundary=""')).toBeNull();
  });
});
