import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { UPLOAD_DIR } from '../../src/modules/attestations/upload/attachment-sink';
import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { countRows, FP, genericPath, postGeneric, reportArtifact } from '../support/attestation-helpers';
import { waitOrGiveUp } from '../support/wait';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const MAX = 10 * 1024 * 1024;

/** Staged uploads are removed once the request is answered (stored or rejected). */
async function expectNoStagedFiles(): Promise<void> {
  const empty = () => !fs.existsSync(UPLOAD_DIR) || fs.readdirSync(UPLOAD_DIR).length === 0;
  if (!(await waitOrGiveUp(empty, { timeoutMs: 1000 }))) expect(fs.readdirSync(UPLOAD_DIR)).toEqual([]);
}

/** Binary response bodies as Buffers in supertest. */
function binary(res: any, cb: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
}

describe('generic attestations (spec op 7)', () => {
  let t: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    org = await createOrg(t);
  });

  async function list(flow: string, query = '') {
    const res = await t.http().get(`/api/v2/attestations/${org.name}/${flow}${query}`).set(...bearer(org.adminKey));
    expect(res.status).toBe(200);
    return res.body;
  }

  it('records an attestation in an auto-created flow and trail and answers 201 with a string', async () => {
    const flow = uniqueName('flow');
    const res = await postGeneric(t, org.adminKey, org.name, flow, 'trail-1', {
      attestation_name: 'manual-test',
      is_compliant: true,
      description: 'this is a glorious attestation',
      origin_url: 'https://ci.example.com/runs/1',
      user_data: { 'foo.bar': 'this should work' },
      annotations: { key: 'value' },
      git_commit_info: {
        sha1: 'ae08fc6a5c963ae8dfaa0c27d8e5de9980d433b6',
        branch: 'main',
        message: 'commit',
        author: 'Jon <jon@example.com>',
        timestamp: 1750923680,
        url: 'https://github.com/org/repo/commit/ae08',
      },
      external_urls: { github: 'https://github.com/org/repo/actions/123', jira: { href: 'https://jira/1' } },
    });
    expect(res.status).toBe(201);
    expect(typeof res.body).toBe('string');
    expect(res.headers['content-type']).toMatch(/application\/json/);

    const body = await list(flow);
    expect(body.pagination).toEqual({ total: 1, page: 1, per_page: 20, page_count: 1 });
    const item = body.data[0];
    expect(item).toMatchObject({
      attestation_name: 'manual-test',
      attestation_type: 'generic',
      description: 'this is a glorious attestation',
      has_audit_package: false,
      is_compliant: true,
      origin_url: 'https://ci.example.com/runs/1',
      reported_by: org.adminEmail,
      schema_version: 1,
      user_data: { 'foo.bar': 'this should work' },
      flow_name: flow,
      trail_name: 'trail-1',
      artifact_fingerprint: null,
      artifact_name: null,
      annotations: { key: 'value' },
      external_urls: { github: { href: 'https://github.com/org/repo/actions/123' }, jira: { href: 'https://jira/1' } },
      evidence: null,
      attestation_number: 1,
    });
    expect(item.git_commit_info.sha1).toBe('ae08fc6a5c963ae8dfaa0c27d8e5de9980d433b6');
    expect(item.attestation_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(typeof item.created_at).toBe('number');
    expect(Math.abs(item.created_at - Date.now() / 1000)).toBeLessThan(60);
    expect(item.html_url).toBe(`${t.config.publicBaseUrl}/${org.name}/flows/${flow}/trails/trail-1?attestation_id=${item.attestation_id}`);
    // trail moment stamped: moment 1 began the trail, moment 2 recorded the attestation
    expect(item.moment_number).toBe(2);
  });

  it('round-trips an attachment: digest, file name, size, exact bytes, headers', async () => {
    const flow = uniqueName('flow');
    const content = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 256));
    const res = await postGeneric(t, org.adminKey, org.name, flow, 't1', { attestation_name: 'report', is_compliant: false }, {
      content,
      filename: 'coverage report.tar.gz',
      contentType: 'application/gzip',
    });
    expect(res.status).toBe(201);
    const item = (await list(flow)).data[0];
    expect(item.has_audit_package).toBe(true);
    expect(item.is_compliant).toBe(false);
    expect(item.evidence).toMatchObject({
      sha256: sha256(content),
      filename: 'coverage report.tar.gz',
      size: content.length,
      content_type: 'application/gzip',
    });
    const download = await t
      .http()
      .get(`/api/v2/attestations/${org.name}/${flow}/trail/t1/attestation/${item.attestation_id}/evidence`)
      .set(...bearer(org.adminKey))
      .buffer(true)
      .parse(binary);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers['content-disposition']).toContain('filename="coverage report.tar.gz"');
    expect(Number(download.headers['content-length'])).toBe(content.length);
    expect(sha256(download.body)).toBe(sha256(content));
    expect(Buffer.compare(download.body, content)).toBe(0);
  });

  it('stores a new attachment posted to an existing trail (the one-statement path) and serves it back', async () => {
    const flow = uniqueName('flow');
    await postGeneric(t, org.adminKey, org.name, flow, 't1', { attestation_name: 'first', is_compliant: true }).expect(201);
    const content = Buffer.from(`fresh bytes ${uniqueName('y')}`);
    await postGeneric(t, org.adminKey, org.name, flow, 't1', { attestation_name: 'second', is_compliant: true }, {
      content,
      filename: 'fresh.txt',
      contentType: 'text/plain',
    }).expect(201);
    const item = (await list(flow)).data[0];
    expect(item.evidence).toMatchObject({ sha256: sha256(content), size: content.length });
    const download = await t.http().get(new URL(item.evidence.download_url).pathname).set(...bearer(org.adminKey)).buffer(true).parse(binary);
    expect(download.status).toBe(200);
    expect(Buffer.compare(download.body, content)).toBe(0);
  });

  it('accepts the attachment as attachment_file.0 and stores identical content once', async () => {
    const flow = uniqueName('flow');
    const content = Buffer.from(`same bytes ${uniqueName('x')}`);
    for (const field of ['attachment_file', 'attachment_file.0']) {
      const res = await postGeneric(t, org.adminKey, org.name, flow, 't1', { attestation_name: 'a', is_compliant: true }, {
        field,
        content,
        filename: 'same.txt',
        contentType: 'text/plain',
      });
      expect(res.status).toBe(201);
    }
    const digest = Buffer.from(sha256(content), 'hex');
    expect(await countRows(t, `SELECT 1 FROM evidence_blobs WHERE sha256 = $1`, [digest])).toBe(1);
    expect(await countRows(t, `SELECT 1 FROM attestations WHERE evidence_sha256 = $1`, [digest])).toBe(2);
  });

  it('accepts exactly 10 MB', async () => {
    const flow = uniqueName('flow');
    const content = Buffer.alloc(MAX, 0x61);
    content.write(uniqueName('max'));
    const res = await postGeneric(t, org.adminKey, org.name, flow, 't1', { attestation_name: 'big', is_compliant: true }, {
      content,
      filename: 'big.bin',
    });
    expect(res.status).toBe(201);
    const item = (await list(flow)).data[0];
    expect(item.evidence.size).toBe(MAX);
    expect(item.evidence.sha256).toBe(sha256(content));
    await expectNoStagedFiles();
  });

  it('rejects 10 MB + 1 byte with 413 and stores nothing', async () => {
    const flow = uniqueName('flow');
    const content = Buffer.alloc(MAX + 1, 0x62);
    content.write(uniqueName('over'));
    const res = await postGeneric(t, org.adminKey, org.name, flow, 't1', { attestation_name: 'big', is_compliant: true }, {
      content,
      filename: 'big.bin',
    });
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/10 MB/);
    expect(res.body.errors).toBeNull();
    const digest = Buffer.from(sha256(content), 'hex');
    const prefix = Buffer.from(sha256(content.subarray(0, MAX)), 'hex');
    expect(await countRows(t, `SELECT 1 FROM evidence_blobs WHERE sha256 = ANY($1)`, [[digest, prefix]])).toBe(0);
    expect(await countRows(t, `SELECT 1 FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1`, [org.name])).toBe(0);
    expect(await countRows(t, `SELECT 1 FROM attestations a JOIN organizations o ON o.id = a.org_id WHERE o.name = $1`, [org.name])).toBe(0);
    await expectNoStagedFiles();
  });

  it('rejects a data_json over 1 MB with 413', async () => {
    const flow = uniqueName('flow');
    const res = await postGeneric(t, org.adminKey, org.name, flow, 't1', {
      attestation_name: 'a',
      is_compliant: true,
      user_data: { blob: 'x'.repeat(1024 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: "The form field 'data_json' is larger than 1048576 bytes", errors: null });
    expect(await countRows(t, `SELECT 1 FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1`, [org.name])).toBe(0);
  });

  it('rejects a second file part with 400', async () => {
    const flow = uniqueName('flow');
    const res = await t
      .http()
      .post(genericPath(org.name, flow, 't1'))
      .set(...bearer(org.adminKey))
      .field('data_json', JSON.stringify({ attestation_name: 'a', is_compliant: true }))
      .attach('attachment_file', Buffer.from('one'), 'one.txt')
      .attach('attachment_file.0', Buffer.from('two'), 'two.txt');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Input payload validation failed', errors: { attachment_file: 'at most one attachment file part is allowed' } });
    expect(await countRows(t, `SELECT 1 FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1`, [org.name])).toBe(0);
  });

  /** Sends a raw multipart body over a plain socket-level request (no form library in between). */
  function rawPost(flow: string, body: Buffer, contentType: string): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${t.baseUrl}${genericPath(org.name, flow, 't1')}`,
        { method: 'POST', headers: { Authorization: `Bearer ${org.adminKey}`, 'Content-Type': contentType, 'Content-Length': body.length } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('reads the form as the CLI writes it: preamble, UTF-8 and RFC 8187 file names, bytes that look like a boundary', async () => {
    const flow = uniqueName('flow');
    const boundary = 'a1b2c3d4e5';
    // Content that almost contains the delimiter, and a quoted UTF-8 file name as Go's mime/multipart writes it.
    const content = Buffer.concat([Buffer.from(`\r\n--${boundary.slice(0, 5)}\r\n--${boundary.slice(0, -1)}Z\r\n-`), Buffer.alloc(70_000, 0x2d)]);
    const body = Buffer.concat([
      Buffer.from(`preamble text\r\n--${boundary}\r\nContent-Disposition: form-data; name="data_json"\r\n\r\n`),
      Buffer.from(JSON.stringify({ attestation_name: 'utf8-file', is_compliant: true })),
      Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="attachment_file"; filename="r\u00e9sum\u00e9 \\"v2\\".txt"\r\nContent-Type: text/plain\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await rawPost(flow, body, `multipart/form-data; boundary="${boundary}"`);
    expect(res.status).toBe(201);
    const item = (await list(flow)).data[0];
    expect(item.evidence).toMatchObject({ sha256: sha256(content), size: content.length, filename: 'résumé "v2".txt', content_type: 'text/plain' });

    const extended = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="data_json"\r\n\r\n{"attestation_name":"ext","is_compliant":true}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="attachment_file.0"; filename="plain.txt"; filename*=UTF-8''%E2%9C%93.txt\r\n\r\nok\r\n--${boundary}--`,
    );
    expect((await rawPost(flow, extended, `multipart/form-data; boundary=${boundary}`)).status).toBe(201);
    expect((await list(flow)).data[0].evidence).toMatchObject({ filename: '✓.txt', size: 2, content_type: 'application/octet-stream' });
    await expectNoStagedFiles();
  });

  it('rejects a malformed form with 400 and stores nothing', async () => {
    const flow = uniqueName('flow');
    const part = `Content-Disposition: form-data; name="data_json"\r\n\r\n{"attestation_name":"a","is_compliant":true}`;
    const cases: Array<[string, string, string]> = [
      ['multipart/form-data', `--x\r\n${part}\r\n--x--`, 'invalid multipart request: Multipart: Boundary not found'],
      ['multipart/form-data; boundary=x', `--x\r\n${part}\r\n--x`, 'invalid multipart request: Unexpected end of form'],
      ['multipart/form-data; boundary=x', `--x\r\n${part}`, 'invalid multipart request: Unexpected end of form'],
      ['multipart/form-data; boundary=x', `--x\r\nContent-Type: text/plain\r\n\r\n{}\r\n--x--`, 'invalid multipart request: Multipart: a part has no Content-Disposition header'],
      ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="data_json"; filename="d.json"\r\n\r\n{}\r\n--x--`, ''],
    ];
    for (const [contentType, body, message] of cases) {
      const res = await rawPost(flow, Buffer.from(body), contentType);
      expect(res.status).toBe(400);
      if (message) expect(res.body).toEqual({ message: 'Input payload validation failed', errors: { body: message } });
      else expect(res.body.errors).toEqual({ data_json: 'unknown file part: send the attachment as attachment_file or attachment_file.0' });
    }
    expect(await countRows(t, `SELECT 1 FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1`, [org.name])).toBe(0);
    await expectNoStagedFiles();
  });

  it('drops a large upload that the client abandons halfway, leaving nothing staged or stored', async () => {
    const flow = uniqueName('flow');
    const boundary = 'abandoned';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="data_json"\r\n\r\n{"attestation_name":"a","is_compliant":true}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="attachment_file"; filename="big.bin"\r\n\r\n`,
    );
    await new Promise<void>((resolve) => {
      const req = http.request(`${t.baseUrl}${genericPath(org.name, flow, 't1')}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${org.adminKey}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': 5_000_000 },
      });
      req.on('error', () => resolve());
      req.write(head);
      // 2 MB of the promised 5 MB: past the in-memory threshold, so a temp file is being written.
      req.write(Buffer.alloc(2 * 1024 * 1024, 7), () => setTimeout(() => req.destroy(), 200));
      req.on('close', () => resolve());
    });
    await expectNoStagedFiles();
    expect(await countRows(t, `SELECT 1 FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1`, [org.name])).toBe(0);
  });

  it('rejects unknown file parts and unknown form fields with 400', async () => {
    const flow = uniqueName('flow');
    const file = await t
      .http()
      .post(genericPath(org.name, flow, 't1'))
      .set(...bearer(org.adminKey))
      .field('data_json', JSON.stringify({ attestation_name: 'a', is_compliant: true }))
      .attach('evidence', Buffer.from('one'), 'one.txt');
    expect(file.status).toBe(400);
    expect(file.body.errors).toEqual({ evidence: 'unknown file part: send the attachment as attachment_file or attachment_file.0' });

    const field = await t
      .http()
      .post(genericPath(org.name, flow, 't1'))
      .set(...bearer(org.adminKey))
      .field('data_json', JSON.stringify({ attestation_name: 'a', is_compliant: true }))
      .field('extra', 'x');
    expect(field.status).toBe(400);
    expect(field.body.errors).toEqual({ extra: 'unknown form field: send data_json and at most one attachment_file' });
  });

  it('validates data_json with field paths', async () => {
    const flow = uniqueName('flow');
    const post = (data: unknown) => postGeneric(t, org.adminKey, org.name, flow, 't1', data);

    const missing = await post({});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      message: 'Input payload validation failed',
      errors: { attestation_name: 'is required', is_compliant: 'is required' },
    });

    const unknown = await post({
      attestation_name: 'a',
      is_compliant: true,
      surprise: 1,
      git_commit_info: { sha1: 'abc', bogus: true },
      repo_info: { name: 'r', url: 'https://r', extra: 1 },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({
      surprise: 'unknown field: it is not part of this request',
      'git_commit_info.bogus': 'unknown field: it is not part of this request',
      'repo_info.extra': 'unknown field: it is not part of this request',
    });
    // Keys named like Object members used to be dropped silently; an array is not the one object expected.
    const dropped = await post('{"attestation_name": "a", "is_compliant": true, "git_commit_info": {"sha1": "a", "__proto__": {"x": 1}}, "toString": 1}');
    expect(dropped.status).toBe(400);
    expect(dropped.body.errors).toEqual({
      toString: 'unknown field: it is not part of this request',
      'git_commit_info.__proto__': 'unknown field: it is not part of this request',
    });
    const list = await post({ attestation_name: 'a', is_compliant: true, git_commit_info: [{ sha1: 'a' }] });
    expect(list.status).toBe(400);
    expect(Object.keys(list.body.errors)).toEqual(['git_commit_info']);

    const bad = await post({
      attestation_name: 'has space',
      is_compliant: 'yes',
      artifact_fingerprint: 'ABC',
      external_urls: { x: 5 },
      annotations: { 'bad key': 'v' },
      target_artifacts: ['ok', 'not ok'],
      user_data: 'text',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(
      ['annotations', 'artifact_fingerprint', 'attestation_name', 'external_urls', 'is_compliant', 'target_artifacts', 'user_data'].sort(),
    );
    expect(bad.body.errors.external_urls).toBe("'x' must be a URL string or {href, fingerprint?}");

    // A name PostgreSQL could not index is refused at the edge, naming the field (it was a 500); 256 is taken.
    const long = await post({ attestation_name: 'n'.repeat(3000), is_compliant: true });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual({ attestation_name: 'must be shorter than or equal to 256 characters' });
    expect((await post({ attestation_name: 'n'.repeat(256), is_compliant: true })).status).toBe(201);

    const noJson = await t.http().post(genericPath(org.name, flow, 't1')).set(...bearer(org.adminKey)).field('other', 'x');
    expect(noJson.status).toBe(400);

    const missingPart = await t
      .http()
      .post(genericPath(org.name, flow, 't1'))
      .set(...bearer(org.adminKey))
      .attach('attachment_file', Buffer.from('x'), 'x.txt');
    expect(missingPart.status).toBe(400);
    expect(missingPart.body.errors).toEqual({ data_json: 'is required' });

    const notJson = await post('{not json');
    expect(notJson.status).toBe(400);
    expect(notJson.body.errors.data_json).toMatch(/^is not valid JSON/);

    const array = await post('[1]');
    expect(array.status).toBe(400);
    expect(array.body.errors).toEqual({ data_json: 'must be a JSON object' });

    const nulls = await post({
      attestation_name: 'a',
      is_compliant: true,
      description: null,
      origin_url: null,
      artifact_fingerprint: null,
      target_artifacts: null,
      git_commit_info: null,
      repo_info: null,
      external_urls: null,
      annotations: null,
      user_data: null,
    });
    expect(nulls.status).toBe(201);
    expect(await countRows(t, `SELECT 1 FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1`, [org.name])).toBe(1);
  });

  it('rejects bad flow and trail names in the path with 400', async () => {
    const res = await postGeneric(t, org.adminKey, org.name, '-bad', '.bad', { attestation_name: 'a', is_compliant: true });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['path.flow_name', 'path.trail_name']);
  });

  it('rejects bad path names at the edge while a large attachment streams in, and leaves nothing staged', async () => {
    // A client that sends the whole body and keeps its connection. The 400 leaves as soon as the path is
    // checked, before the form is read; whether the attachment (past the in-memory threshold: a temp file) is
    // then still read and staged, or dropped with the rest of the body, nothing may stay behind.
    const boundary = 'early-answer';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="data_json"\r\n\r\n{"attestation_name":"a","is_compliant":true}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="attachment_file"; filename="big.bin"\r\n\r\n`,
      ),
      Buffer.alloc(3 * 1024 * 1024, 7),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const agent = new http.Agent({ keepAlive: true });
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          `${t.baseUrl}${genericPath(org.name, 'ok-flow', '.bad')}`,
          {
            method: 'POST',
            agent,
            headers: { Authorization: `Bearer ${org.adminKey}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': body.length },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).errors).toEqual({ 'path.trail_name': 'must match ^[a-zA-Z0-9][a-zA-Z0-9\\-_.~]*$' });
      // The server reads a connection's requests in order: once a second request on it is answered, the first
      // one's body has been read or dropped (if the server closed the connection instead, nothing more arrives).
      await new Promise<void>((resolve, reject) =>
        http.get(`${t.baseUrl}/health`, { agent }, (res) => res.resume().on('end', () => resolve())).on('error', reject),
      );
      await expectNoStagedFiles();
    } finally {
      agent.destroy();
    }
    expect(await countRows(t, `SELECT 1 FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1`, [org.name])).toBe(0);
  });

  it('answers 415 for a JSON body', async () => {
    const res = await t
      .http()
      .post(genericPath(org.name, 'f', 't'))
      .set(...bearer(org.adminKey))
      .send({ attestation_name: 'a', is_compliant: true });
    expect(res.status).toBe(415);
    expect(res.body.message).toMatch(/multipart\/form-data/);
  });

  it('checks credential, org and role before the body', async () => {
    const anonymous = await t.http().post(genericPath(org.name, 'f', 't')).field('data_json', '{}');
    expect(anonymous.status).toBe(401);
    const reader = await addMember(t, org.name, 'reader');
    const forbidden = await postGeneric(t, reader, org.name, 'f', 't', { attestation_name: 'a', is_compliant: true });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ message: "You don't have permission to access this resource", errors: null });
    const member = await addMember(t, org.name, 'member');
    expect((await postGeneric(t, member, org.name, uniqueName('f'), 't', { attestation_name: 'a', is_compliant: true })).status).toBe(201);
    const noOrg = await postGeneric(t, org.adminKey, uniqueName('nope'), 'f', 't', { attestation_name: 'a', is_compliant: true });
    expect(noOrg.status).toBe(404);
  });

  it('requires artifact_fingerprint to name an artifact reported in the trail', async () => {
    const flow = uniqueName('flow');
    const fp = FP('a1');
    const res = await postGeneric(t, org.adminKey, org.name, flow, 't1', { attestation_name: 'scan', is_compliant: true, artifact_fingerprint: fp });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: `Artifact with fingerprint '${fp}' not found in trail 't1' of flow '${flow}'`, errors: null });
    // nothing half-written: the auto-created flow and trail were rolled back too
    expect(await countRows(t, `SELECT 1 FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1`, [org.name])).toBe(0);

    await postGeneric(t, org.adminKey, org.name, flow, 't1', { attestation_name: 'first', is_compliant: true }).expect(201);
    await reportArtifact(t, org.adminKey, org.name, flow, 't1', fp, 'web');
    const ok = await postGeneric(t, org.adminKey, org.name, flow, 't1', { attestation_name: 'scan', is_compliant: true, artifact_fingerprint: fp });
    expect(ok.status).toBe(201);
    const item = (await list(flow)).data[0];
    expect(item).toMatchObject({ attestation_name: 'scan', artifact_fingerprint: fp, artifact_name: 'web' });
  });

  it('fills artifact slots named by target_artifacts, also before the artifact is reported', async () => {
    const flow = uniqueName('flow');
    const res = await postGeneric(t, org.adminKey, org.name, flow, 't1', {
      attestation_name: 'unit-test',
      is_compliant: true,
      target_artifacts: ['web', 'db'],
    });
    expect(res.status).toBe(201);
    const web = await t.http().get(`/api/v2/attestations/${org.name}/${flow}/trail/t1/web.unit-test`).set(...bearer(org.adminKey));
    expect(web.status).toBe(200);
    expect(web.body).toHaveLength(1);
    expect(web.body[0]).toMatchObject({ artifact_name: 'web', attestation_name: 'unit-test', target_artifacts: ['web', 'db'] });
    const db = await t.http().get(`/api/v2/attestations/${org.name}/${flow}/trail/t1/db.unit-test`).set(...bearer(org.adminKey));
    expect(db.status).toBe(200);
    expect(db.body[0].artifact_name).toBe('db');
    // both slots were filled by the same trail moment
    expect(db.body[0].moment_number).toBe(web.body[0].moment_number);
  });

  it('registers and updates the repo named by repo_info', async () => {
    const flow = uniqueName('flow');
    const repo = { id: '123456', name: 'acme/web', url: 'https://github.com/acme/web', provider: 'github' };
    await postGeneric(t, org.adminKey, org.name, flow, 't1', { attestation_name: 'a', is_compliant: true, repo_info: repo }).expect(201);
    await postGeneric(t, org.adminKey, org.name, flow, 't1', {
      attestation_name: 'b',
      is_compliant: true,
      repo_info: { ...repo, name: 'acme/web-renamed' },
    }).expect(201);
    // provider ids are unique only within a provider: the same id from another provider is another repo
    await postGeneric(t, org.adminKey, org.name, flow, 't1', {
      attestation_name: 'c',
      is_compliant: true,
      repo_info: { ...repo, name: 'other/app', url: 'https://dev.azure.com/other/app', provider: 'azure_devops_services' },
    }).expect(201);
    const rows = await t.dataSource.query(
      `SELECT r.name, r.provider, r.url FROM repos r JOIN organizations o ON o.id = r.org_id WHERE o.name = $1 AND r.external_id = '123456'
       ORDER BY r.provider`,
      [org.name],
    );
    expect(rows).toEqual([
      { name: 'other/app', provider: 'azure_devops_services', url: 'https://dev.azure.com/other/app' },
      { name: 'acme/web-renamed', provider: 'github', url: 'https://github.com/acme/web' },
    ]);
  });

  it('has no route that updates or deletes an attestation', async () => {
    const flow = uniqueName('flow');
    await postGeneric(t, org.adminKey, org.name, flow, 't1', { attestation_name: 'a', is_compliant: true }).expect(201);
    const id = (await list(flow)).data[0].attestation_id;
    for (const method of ['put', 'patch', 'delete'] as const) {
      for (const path of [
        `/api/v2/attestations/${org.name}/${flow}/trail/t1/attestation/${id}`,
        `/api/v2/attestations/${org.name}/${flow}/trail/t1/a`,
        `/api/v2/attestations/${org.name}/${flow}/trail/t1/attestation/${id}/evidence`,
      ]) {
        const res = await t.http()[method](path).set(...bearer(org.adminKey));
        expect(res.status).toBe(404);
      }
    }
    expect((await list(flow)).data).toHaveLength(1);
  });

  it('keeps flow_seq and trail moments dense under concurrent writers, and answers each request on its own', async () => {
    const flow = uniqueName('flow');
    const fp = FP('c3');
    // trail t0 exists with an artifact; the others are created by the concurrent requests themselves
    await postGeneric(t, org.adminKey, org.name, flow, 't0', { attestation_name: 'first', is_compliant: true }).expect(201);
    await reportArtifact(t, org.adminKey, org.name, flow, 't0', fp, 'web');
    const requests = Array.from({ length: 40 }, (_, i) => {
      const trail = `t${i % 5}`;
      const data: Record<string, unknown> = { attestation_name: `n${i}`, is_compliant: true };
      if (i === 17) data.artifact_fingerprint = FP('dd'); // unknown: 404, must not take the others down
      if (i === 23) data.artifact_fingerprint = fp; // t3 has no such artifact: 404 as well
      if (i === 10) data.artifact_fingerprint = fp; // t0 has it
      return postGeneric(t, org.adminKey, org.name, flow, trail, data).then((res) => ({ i, trail, res }));
    });
    const results = await Promise.all(requests);
    for (const { i, res } of results) expect([i, res.status]).toEqual([i, i === 17 || i === 23 ? 404 : 201]);

    const rows = await t.dataSource.query(
      `SELECT a.flow_seq, a.name, a.moment_number, t.name AS trail, a.artifact_name, a.created_at
       FROM attestations a JOIN flows f ON f.id = a.flow_id JOIN trails t ON t.id = a.trail_id JOIN organizations o ON o.id = f.org_id
       WHERE o.name = $1 AND f.name = $2 ORDER BY a.flow_seq`,
      [org.name, flow],
    );
    expect(rows.map((r: any) => Number(r.flow_seq))).toEqual(Array.from({ length: 39 }, (_, i) => i + 1));
    expect(rows.find((r: any) => r.name === 'n10').artifact_name).toBe('web');
    expect(rows.map((r: any) => r.name)).not.toContain('n17');
    for (let k = 1; k < rows.length; k++) expect(rows[k].created_at.getTime()).toBeGreaterThanOrEqual(rows[k - 1].created_at.getTime());
    const [{ count }] = await t.dataSource.query(`SELECT c.attestation_count AS count FROM flow_attestation_counters c JOIN flows f ON f.id = c.flow_id JOIN organizations o ON o.id = f.org_id WHERE o.name = $1 AND f.name = $2`, [org.name, flow]);
    expect(Number(count)).toBe(39);
    // every trail's moments are 1..last without gaps, and each attestation points at a moment of its trail
    const moments = await t.dataSource.query(
      `SELECT t.name AS trail, array_agg(m.moment_number ORDER BY m.moment_number) AS numbers, t.last_moment
       FROM trail_moments m JOIN trails t ON t.id = m.trail_id JOIN flows f ON f.id = t.flow_id JOIN organizations o ON o.id = f.org_id
       WHERE o.name = $1 AND f.name = $2 GROUP BY t.name, t.last_moment`,
      [org.name, flow],
    );
    expect(moments).toHaveLength(5);
    for (const m of moments) expect(m.numbers).toEqual(Array.from({ length: m.last_moment }, (_, i) => i + 1));
    const attestationMoments = new Set(rows.map((r: any) => `${r.trail}/${r.moment_number}`));
    expect(attestationMoments.size).toBe(rows.length);
  });

  it('keeps flow_seq dense per flow when writers of several flows and orgs share the group commits', async () => {
    const other = await createOrg(t);
    const flows = [uniqueName('flow'), uniqueName('flow'), uniqueName('flow')];
    const targets = [
      ...flows.map((flow) => ({ o: org, flow })),
      { o: other, flow: flows[0] }, // same flow name in another org: its own counter
    ];
    // Trails exist first (so the concurrent requests take the one-statement path), then 80 requests at once.
    for (const { o, flow } of targets) {
      for (const trail of ['t0', 't1']) await postGeneric(t, o.adminKey, o.name, flow, trail, { attestation_name: 'setup', is_compliant: true }).expect(201);
    }
    const results = await Promise.all(
      Array.from({ length: 80 }, (_, i) => {
        const { o, flow } = targets[i % targets.length];
        return postGeneric(t, o.adminKey, o.name, flow, `t${i % 2}`, { attestation_name: `n${i}`, is_compliant: i % 3 > 0 }).then((res) => res.status);
      }),
    );
    expect(results).toEqual(Array(80).fill(201));
    for (const { o, flow } of targets) {
      const rows = await t.dataSource.query(
        `SELECT a.flow_seq, a.name, a.created_at, c.attestation_count FROM attestations a JOIN flows f ON f.id = a.flow_id
         JOIN flow_attestation_counters c ON c.flow_id = f.id JOIN organizations o ON o.id = f.org_id WHERE o.name = $1 AND f.name = $2 ORDER BY a.flow_seq`,
        [o.name, flow],
      );
      // 2 setup attestations + 20 of the 80
      expect(rows.map((r: any) => Number(r.flow_seq))).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
      expect(Number(rows[0].attestation_count)).toBe(22);
      for (let k = 1; k < rows.length; k++) expect(rows[k].created_at.getTime()).toBeGreaterThanOrEqual(rows[k - 1].created_at.getTime());
      const listed = await t.http().get(`/api/v2/attestations/${o.name}/${flow}?per_page=100`).set(...bearer(o.adminKey));
      expect(listed.body.data.map((a: any) => a.attestation_number)).toEqual(Array.from({ length: 22 }, (_, i) => 22 - i));
    }
  });

  it("the database refuses an attestation whose flow is not its trail's flow", async () => {
    const [a, b] = [uniqueName('flow-a'), uniqueName('flow-b')];
    await postGeneric(t, org.adminKey, org.name, a, 'trail-1', { attestation_name: 'x', is_compliant: true }).expect(201);
    await postGeneric(t, org.adminKey, org.name, b, 'trail-1', { attestation_name: 'x', is_compliant: true }).expect(201);
    const [other] = await t.dataSource.query(`SELECT f.id FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1 AND f.name = $2`, [org.name, b]);
    // A copy of flow a's attestation that claims flow b: its trail belongs to flow a.
    const forged = t.dataSource.query(
      `INSERT INTO attestations (id, org_id, flow_id, trail_id, flow_seq, moment_number, name, attestation_type, is_compliant)
       SELECT gen_random_uuid(), a.org_id, $3, a.trail_id, 1000, a.moment_number, a.name, a.attestation_type, a.is_compliant
       FROM attestations a JOIN flows f ON f.id = a.flow_id JOIN organizations o ON o.id = f.org_id
       WHERE o.name = $1 AND f.name = $2`,
      [org.name, a, other.id],
    );
    await expect(forged).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23503', constraint: 'attestations_trail_flow_fkey' }) });
  });

  it('stores free-form data exactly as sent, keys named like "constructor" or "__proto__" included', async () => {
    const flow = uniqueName('flow');
    const userData = '{"constructor":{"a":1},"toString":"x","__proto__":{"polluted":true},"list":[{"valueOf":"v"}]}';
    const annotations = '{"constructor":"y","hasOwnProperty":"z"}';
    // Without repo_info the body takes the compiled validation path; with it, class-transformer's.
    const bodies = [
      `{"attestation_name":"fast","is_compliant":true,"user_data":${userData},"annotations":${annotations}}`,
      `{"attestation_name":"full","is_compliant":true,"user_data":${userData},"annotations":${annotations},"repo_info":{"name":"r","url":"https://r"}}`,
    ];
    for (const body of bodies) await postGeneric(t, org.adminKey, org.name, flow, 'trail-1', body).expect(201);
    const listed = await list(flow);
    expect(listed.data).toHaveLength(2);
    // (jsonb orders keys its own way: compare the key/value pairs)
    const pairs = (json: string | object) => Object.entries(typeof json === 'string' ? JSON.parse(json) : json).sort(([a], [b]) => (a < b ? -1 : 1));
    for (const item of listed.data) {
      expect(pairs(item.user_data)).toEqual(pairs(userData));
      expect(pairs(item.annotations)).toEqual(pairs(annotations));
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
