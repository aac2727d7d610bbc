import { PRIVATE_TMP } from '../support/private-upload-dir';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { SPILL_THRESHOLD_BYTES, UPLOAD_DIR } from '../../src/modules/attestations/upload/attachment-sink';
import { postGeneric } from '../support/attestation-helpers';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitOrGiveUp } from '../support/wait';

// The module object the sink calls createWriteStream on (not an interop copy), to inject temp file failures.
// eslint-disable-next-line @typescript-eslint/no-var-requires
const realFs = require('node:fs') as typeof import('node:fs');

/**
 * Where uploads are staged, and what happens when that fails: the server's trouble is never a 400 and never a
 * lasting state. A folder that cannot be made is a 503 while it cannot, and made once it can; a folder a tmp
 * cleaner removed is made again; a temp file that cannot be written answers 503 (no room, no file descriptor) or
 * a 500 with an error id, never the temp path. A part Content-Type no header could carry is refused at upload,
 * and one already stored downloads as application/octet-stream.
 */
describe('staging uploads', () => {
  let t: TestApp;
  let org: TestOrg;
  // Other bytes each time: a blob already stored is not read again, which would hide a temp file's failure.
  const big = () => randomBytes(SPILL_THRESHOLD_BYTES + 4096);
  const attest = (flow: string, name: string, attachment?: { content: Buffer; contentType?: string }) =>
    postGeneric(t, org.adminKey, org.name, flow, 't1', { attestation_name: name, is_compliant: true }, attachment && { ...attachment, filename: `${name}.bin` });
  const latest = async (flow: string) =>
    (await t.http().get(`/api/v2/attestations/${org.name}/${flow}`).set(...bearer(org.adminKey)).expect(200)).body.data[0];

  beforeAll(async () => {
    expect(UPLOAD_DIR.startsWith(PRIVATE_TMP + path.sep)).toBe(true);
    // The folder cannot be made from the start (a file where it should be, as a full disk would refuse it).
    fs.writeFileSync(UPLOAD_DIR, 'not a folder');
    t = await startTestApp();
    org = await createOrg(t);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.close();
    fs.rmSync(PRIVATE_TMP, { recursive: true, force: true });
  });
  afterEach(() => jest.restoreAllMocks());

  it('a folder that cannot be made at the first attestation: only spilled attachments are refused (503), and only while it cannot', async () => {
    const flow = uniqueName('flow');
    await attest(flow, 'plain').expect(201);
    await attest(flow, 'small', { content: Buffer.from('small') }).expect(201);
    const refused = await attest(flow, 'big-refused', { content: big() });
    expect({ status: refused.status, retryAfter: refused.headers['retry-after'], body: refused.body }).toEqual({
      status: 503,
      retryAfter: '30',
      body: { message: 'The server is out of storage; retry later', errors: null },
    });

    fs.rmSync(UPLOAD_DIR);
    await attest(flow, 'big-after', { content: big() }).expect(201);
    expect((await latest(flow)).attestation_name).toBe('big-after');
  });

  it('an upload folder removed while the service runs (a tmp cleaner) is made again', async () => {
    const flow = uniqueName('flow');
    await attest(flow, 'before', { content: big() }).expect(201);
    fs.rmSync(UPLOAD_DIR, { recursive: true, force: true });
    await attest(flow, 'after', { content: big() }).expect(201);
  });

  it('a temp file that cannot be written is the server trouble: 500 with an error id and no path, or 503 without file descriptors', async () => {
    fs.rmSync(UPLOAD_DIR, { recursive: true, force: true });
    const flow = uniqueName('flow');
    const realCreate = realFs.createWriteStream;
    // Only the sink's temp files, and each failure once.
    const failOnce = (make: (options: object) => Writable) => {
      const spy = jest.spyOn(realFs, 'createWriteStream').mockImplementation(((file: string, options: object) => {
        if (!String(file).startsWith(UPLOAD_DIR)) return realCreate(file, options);
        spy.mockRestore();
        return make(options);
      }) as typeof realFs.createWriteStream);
    };
    // The open fails for a reason that is neither the client's nor a lack of room (as EACCES, EROFS would).
    failOnce((options) => realCreate(path.join(PRIVATE_TMP, 'missing', 'sub', 'file'), options));
    const failed = await attest(flow, 'enoent', { content: big() });
    expect(failed.status).toBe(500);
    expect(failed.body.error_id).toEqual(expect.any(String));
    expect(failed.text).not.toContain(PRIVATE_TMP);
    expect(failed.text).not.toContain('invalid multipart');

    const emfile = Object.assign(new Error(`EMFILE: too many open files, open '${UPLOAD_DIR}/x'`), { code: 'EMFILE', syscall: 'open' });
    failOnce(() => new Writable({ write: (_chunk, _encoding, done) => done(emfile) }));
    const refused = await attest(flow, 'emfile', { content: big() });
    expect({ status: refused.status, retryAfter: refused.headers['retry-after'], message: refused.body.message }).toEqual({
      status: 503,
      retryAfter: expect.stringMatching(/^[1-9]\d*$/),
      message: 'The server is out of resources; retry later',
    });
    expect(refused.text).not.toContain(UPLOAD_DIR);

    await attest(flow, 'after', { content: big() }).expect(201);
    // Removed when each response closes, which the client may see before the removal is done.
    await waitOrGiveUp(() => fs.readdirSync(UPLOAD_DIR).length === 0, { timeoutMs: 5_000, intervalMs: 20 });
    expect(fs.readdirSync(UPLOAD_DIR)).toEqual([]);
  });

  it('a part Content-Type that is not a media type is a 400 naming the part; one already stored downloads as application/octet-stream', async () => {
    const flow = uniqueName('flow');
    for (const contentType of ['text/plain; charset=日本', 'text/plain\nX-Evil: 1', 'text', 'text/plain; charset="open']) {
      const res = await attest(flow, 'bad-type', { content: Buffer.from('hello'), contentType });
      expect({ contentType, status: res.status, errors: res.body.errors }).toEqual({
        contentType,
        status: 400,
        errors: { attachment_file: expect.stringContaining('media type') },
      });
    }
    await attest(flow, 'good', { content: Buffer.from('hello'), contentType: 'text/plain; charset="utf-8"' }).expect(201);
    const stored = await latest(flow);
    const download = () =>
      t.http().get(`/api/v2/attestations/${org.name}/${flow}/trail/t1/attestation/${stored.attestation_id}/evidence`).set(...bearer(org.adminKey));
    expect((await download().expect(200)).headers['content-type']).toBe('text/plain; charset="utf-8"');

    // A row stored before uploads were checked (attestations are append-only: past the trigger, for this session only).
    await t.dataSource.transaction(async (manager) => {
      await manager.query(`SET LOCAL session_replication_role = replica`);
      await manager.query(`UPDATE attestations SET evidence_content_type = $2 WHERE id = $1`, [stored.attestation_id, 'text/plain; charset=日本']);
    });
    const res = await download().expect(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(Buffer.from(res.body).toString()).toBe('hello');
  });
});
