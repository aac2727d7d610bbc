import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { AttachmentSink, SPILL_THRESHOLD_BYTES } from './attachment-sink';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('AttachmentSink', () => {
  it('stages exactly the bytes it hashed, from slices of several chunks (memory content is not hashed again)', async () => {
    const sent = randomBytes(3000);
    const sink = new AttachmentSink(1 << 20, 'report.bin', 'application/octet-stream');
    // As the parser gives them: views into the request's chunks, of uneven sizes.
    const chunks = [sent.subarray(0, 1000), sent.subarray(1000, 1001), sent.subarray(1001)].map((part) => Buffer.concat([Buffer.from('xx'), part]));
    for (const chunk of chunks) sink.write(chunk.subarray(2));

    const staged = await sink.finish();
    expect(staged.sha256Hex).toBe(sha256(sent));
    expect(staged.size).toBe(sent.length);
    expect((await staged.read()).equals(sent)).toBe(true);
  });

  it('stages one slice as it came, and an empty file as empty', async () => {
    const one = new AttachmentSink(1 << 20, 'a.txt', 'text/plain');
    one.write(Buffer.from('a single slice'));
    const staged = await one.finish();
    expect((await staged.read()).toString()).toBe('a single slice');
    expect(staged.sha256Hex).toBe(sha256(Buffer.from('a single slice')));

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
