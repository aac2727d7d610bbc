import { parseSingleValue } from './bytea-copy';

/** COPY's binary format as PostgreSQL documents it: signature, flags, extension length, tuples, -1. */
function copyBinary(rows: Array<Buffer | null>, extension = Buffer.alloc(0)): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(4), Buffer.alloc(4)];
  parts[2].writeUInt32BE(extension.length);
  parts.push(extension);
  for (const row of rows) {
    const head = Buffer.alloc(6);
    head.writeInt16BE(1, 0);
    head.writeInt32BE(row === null ? -1 : row.length, 2);
    parts.push(head, row ?? Buffer.alloc(0));
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

describe('parseSingleValue (a bytea read by COPY ... TO STDOUT (FORMAT binary))', () => {
  it('gives the value\'s bytes exactly, whatever they are', () => {
    const bytes = Buffer.from([0, 1, 0xff, 0x0a, 0x0d, 0xc3, 0x28, 0x5c, 0x78]);
    expect(parseSingleValue(copyBinary([bytes]))!.equals(bytes)).toBe(true);
    expect(parseSingleValue(copyBinary([bytes], Buffer.from('ext')))!.equals(bytes)).toBe(true);
    expect(parseSingleValue(copyBinary([Buffer.alloc(0)]))!.length).toBe(0);
  });

  it('gives null for no row and for a NULL', () => {
    expect(parseSingleValue(copyBinary([]))).toBeNull();
    expect(parseSingleValue(copyBinary([null]))).toBeNull();
  });

  it('refuses what is not one value of one row', () => {
    expect(() => parseSingleValue(Buffer.from('not copy data at all'))).toThrow(/header/);
    expect(() => parseSingleValue(copyBinary([Buffer.from('a'), Buffer.from('b')]))).toThrow(/one row/);
    expect(() => parseSingleValue(copyBinary([Buffer.from('abc')]).subarray(0, 25))).toThrow(/one row/);
  });
});
