import { gzipSync } from 'node:zlib';
import { PayloadTooLargeError } from '../../../../common/errors/app-error';
import { walkEvidenceFiles } from './evidence-files';
import { EvidenceFormatError } from './evidence-format-error';
import { looksLikeTar } from './tar-reader';

/** A tar header block as Go's archive/tar writes it (ustar magic, octal fields, checksum). */
function header(name: string, size: number, type = '0'): Buffer {
  const block = Buffer.alloc(512);
  block.write(name.slice(0, 100), 0);
  block.write('0000644\0', 100);
  block.write('0000000\0', 108);
  block.write('0000000\0', 116);
  block.write(size.toString(8).padStart(11, '0') + '\0', 124);
  block.write('00000000000\0', 136);
  block.write(type, 156);
  block.write('ustar\0' + '00', 257);
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of block) sum += b;
  block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return block;
}
const entry = (name: string, content: Buffer, type = '0') =>
  Buffer.concat([header(name, content.length, type), content, Buffer.alloc((512 - (content.length % 512)) % 512)]);
const pax = (path: string) => {
  const record = (n: number) => `${n} path=${path}\n`;
  let len = record(0).length;
  while (record(len).length !== len) len = record(len).length;
  return entry('PaxHeaders/x', Buffer.from(record(len)), 'x');
};
const end = Buffer.alloc(1024);

async function files(content: Buffer, filename: string) {
  const out: Record<string, string> = {};
  await walkEvidenceFiles(content, filename, (name) => {
    const chunks: Buffer[] = [];
    return { write: (c) => chunks.push(Buffer.from(c)), end: () => (out[name] = Buffer.concat(chunks).toString('utf8')) };
  });
  return out;
}

describe('walkEvidenceFiles', () => {
  it('reads a gzipped tar as Go writes it, PAX long names included, skipping directories', async () => {
    const long = `reports/${'nested/'.repeat(20)}TEST-a.xml`;
    const tar = Buffer.concat([entry('reports/', Buffer.alloc(0), '5'), entry('reports/one.xml', Buffer.from('<a/>')), pax(long), entry('ignored-short-name', Buffer.from('x'.repeat(700))), end]);
    expect(looksLikeTar(tar)).toBe(true);
    expect(await files(gzipSync(tar), 'evidence.tgz')).toEqual({ 'reports/one.xml': '<a/>', [long]: 'x'.repeat(700) });
  });

  it('reads one plain file, and a gzip that is not a tar as the file it holds', async () => {
    expect(await files(Buffer.from('<r/>'), 'junit.xml')).toEqual({ 'junit.xml': '<r/>' });
    expect(await files(gzipSync(Buffer.from('<r/>')), 'junit.xml.gz')).toEqual({ 'junit.xml': '<r/>' });
  });

  it('refuses a truncated archive, a corrupt header and a gzip bomb', async () => {
    const tar = Buffer.concat([entry('a.xml', Buffer.from('x'.repeat(2000))), end]);
    await expect(files(gzipSync(tar.subarray(0, 1200)), 'e.tgz')).rejects.toBeInstanceOf(EvidenceFormatError);
    const second = Buffer.concat([entry('a.xml', Buffer.from('y')), tar]);
    second[1024 + 10] ^= 0xff; // a name byte of the second header (after 512 + 512 bytes): its checksum no longer matches
    await expect(files(gzipSync(second), 'e.tgz')).rejects.toBeInstanceOf(EvidenceFormatError);
    const bomb = gzipSync(Buffer.alloc(130 * 1024 * 1024));
    await expect(files(bomb, 'bomb.gz')).rejects.toBeInstanceOf(PayloadTooLargeError);
  });
});
