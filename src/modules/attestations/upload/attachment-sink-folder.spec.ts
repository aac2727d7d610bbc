import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as SinkModule from './attachment-sink';
import type * as StagedModule from './staged-evidence';

// The module's own os object (not an interop copy), so that the sink loaded below sees the private folder.
// eslint-disable-next-line @typescript-eslint/no-var-requires
const realOs = require('node:os') as typeof import('node:os');
// eslint-disable-next-line @typescript-eslint/no-var-requires
const realFs = require('node:fs') as typeof import('node:fs');
const privateTmp = fs.mkdtempSync(path.join(realOs.tmpdir(), 'vt-sink-'));
// An upload folder of this file's own: these tests remove it and put a file in its place.
const tmpdir = jest.spyOn(realOs, 'tmpdir').mockReturnValue(privateTmp);
// eslint-disable-next-line @typescript-eslint/no-var-requires
const { AttachmentSink, UPLOAD_DIR, SPILL_THRESHOLD_BYTES } = require('./attachment-sink') as typeof SinkModule;
// eslint-disable-next-line @typescript-eslint/no-var-requires
const { StagedEvidence } = require('./staged-evidence') as typeof StagedModule;
tmpdir.mockRestore();

const spilled = (sink: InstanceType<typeof AttachmentSink>) => {
  const sent = randomBytes(SPILL_THRESHOLD_BYTES + 1024);
  for (let at = 0; at < sent.length; at += 65536) sink.write(sent.subarray(at, at + 65536));
  return sent;
};

describe('AttachmentSink: the upload folder and temp file cleanup', () => {
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => fs.rmSync(privateTmp, { recursive: true, force: true }));

  it('uses a folder of its own here', () => {
    expect(UPLOAD_DIR.startsWith(privateTmp + path.sep)).toBe(true);
  });

  it('makes the upload folder when it spills, again after a tmp cleaner removed it', async () => {
    for (let round = 0; round < 2; round++) {
      fs.rmSync(UPLOAD_DIR, { recursive: true, force: true });
      const sink = new AttachmentSink(SPILL_THRESHOLD_BYTES * 2, 'big.bin', 'application/octet-stream');
      const sent = spilled(sink);
      const staged = await sink.finish();
      expect((await staged.read()).equals(sent)).toBe(true);
      expect(fs.statSync(UPLOAD_DIR).mode & 0o777).toBe(0o700);
      await staged.dispose();
    }
  });

  it('a folder that cannot be made is a 503 for lack of storage (Node reports a full disk as ENOENT), tried again at the next spill', async () => {
    fs.rmSync(UPLOAD_DIR, { recursive: true, force: true });
    fs.writeFileSync(UPLOAD_DIR, 'not a folder');
    const refused = new AttachmentSink(SPILL_THRESHOLD_BYTES * 2, 'big.bin', 'application/octet-stream');
    expect(() => spilled(refused)).toThrow(expect.objectContaining({ status: 503, code: 'insufficient_resources', resource: 'storage', store: 'files' }));
    await refused.abort();

    fs.rmSync(UPLOAD_DIR);
    const sink = new AttachmentSink(SPILL_THRESHOLD_BYTES * 2, 'big.bin', 'application/octet-stream');
    const sent = spilled(sink);
    const staged = await sink.finish();
    expect((await staged.read()).equals(sent)).toBe(true);
    await staged.dispose();
  });

  it('dispose() and abort() never reject when the temp file cannot be removed (EROFS): they report it', async () => {
    const failures: Array<[unknown, string]> = [];
    const report = (error: unknown, tempPath: string) => failures.push([error, tempPath]);
    const erofs = Object.assign(new Error('EROFS: read-only file system, unlink'), { code: 'EROFS' });
    jest.spyOn(realFs.promises, 'rm').mockRejectedValue(erofs);

    const sink = new AttachmentSink(SPILL_THRESHOLD_BYTES * 2, 'big.bin', 'application/octet-stream', report);
    spilled(sink);
    const staged = await sink.finish();
    await expect(staged.dispose()).resolves.toBeUndefined();

    const aborted = new AttachmentSink(SPILL_THRESHOLD_BYTES * 2, 'big.bin', 'application/octet-stream', report);
    spilled(aborted);
    await expect(aborted.abort()).resolves.toBeUndefined();

    const made = new StagedEvidence(Buffer.alloc(32), 1, 'a', 'text/plain', null, path.join(UPLOAD_DIR, 'gone'), report);
    await expect(made.dispose()).resolves.toBeUndefined();

    expect(failures.map(([error]) => (error as { code?: string }).code)).toEqual(['EROFS', 'EROFS', 'EROFS']);
    expect(failures.every(([, tempPath]) => tempPath.startsWith(UPLOAD_DIR))).toBe(true);
    jest.restoreAllMocks();
    for (const [, tempPath] of failures) fs.rmSync(tempPath, { force: true });
  });
});
