import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { AttachmentSink, ensureUploadDir, SPILL_THRESHOLD_BYTES } from './attachment-sink';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('AttachmentSink', () => {
  beforeAll(() => ensureUploadDir());

  it('stages its own copy of what it hashed: a slice the parser reuses after the call changes nothing', async () => {
    const sent = randomBytes(3000);
    const sink = new AttachmentSink(1 << 20, 'report.bin', 'application/octet-stream');
    // The parser's slices are valid only during the call: the same buffer is overwritten with the next slice.
    const window = Buffer.alloc(1000);
    for (let at = 0; at < sent.length; at += window.length) {
      sent.copy(window, 0, at, at + window.length);
      sink.write(window);
    }
    window.fill(0);

    const staged = await sink.finish();
    expect(staged.sha256Hex).toBe(sha256(sent));
    expect(staged.size).toBe(sent.length);
    expect((await staged.read()).equals(sent)).toBe(true);
  });

  it('stages one slice as it came, and an empty file as empty', async () => {
    const one = new AttachmentSink(1 << 20, 'a.txt', 'text/plain');
    const data = Buffer.from('a single slice');
    one.write(data);
    data.fill(0x20);
    expect((await (await one.finish()).read()).toString()).toBe('a single slice');

    const empty = await new AttachmentSink(1 << 20, 'empty.txt', 'text/plain').finish();
    expect(empty.size).toBe(0);
    expect((await empty.read()).length).toBe(0);
    expect(empty.sha256Hex).toBe(sha256(Buffer.alloc(0)));
  });

  it('spills past the threshold, and refuses a temp file changed on disk since it was hashed', async () => {
    const sent = randomBytes(SPILL_THRESHOLD_BYTES + 4096);
    const sink = new AttachmentSink(SPILL_THRESHOLD_BYTES * 2, 'big.bin', 'application/octet-stream');
    for (let at = 0; at < sent.length; at += 65536) sink.write(sent.subarray(at, at + 65536));
    const staged = await sink.finish();
    const tempPath = (staged as unknown as { tempPath: string }).tempPath;
    expect(tempPath).toEqual(expect.any(String));
    const onDisk = await fs.readFile(tempPath);
    onDisk[onDisk.length - 1] ^= 0x01;
    await fs.writeFile(tempPath, onDisk);

    await expect(staged.read()).rejects.toMatchObject({ code: 'evidence_digest_mismatch' });
    await staged.dispose();
    await expect(fs.access(tempPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
