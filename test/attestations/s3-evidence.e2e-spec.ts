import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { StagedEvidence } from '../../src/modules/attestations/upload/staged-evidence';
import { PostgresEvidenceStore } from '../../src/modules/attestations/persistence/evidence.store';
import { JsonLogger } from '../../src/common/logging/json-logger';
import { AttestationBatcher } from '../../src/modules/attestations/recording/attestation-batcher';
import { AttestationTypeRegistry } from '../../src/modules/attestations/types/attestation-type.registry';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { countRows, postGeneric } from '../support/attestation-helpers';

// s3rver ships no types; it is a dev-only test double of S3.
const S3rver = require('s3rver');

const BUCKET = 'veritrail-evidence';
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Binary response bodies as Buffers in supertest. */
function binary(res: any, cb: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
}

/** A tar.gz's entries, read strictly (gunzip, then the ustar headers one after another): a misaligned tar fails here. */
function tarEntries(gz: Buffer): Array<{ name: string; content: Buffer }> {
  const tar = gunzipSync(gz);
  const entries: Array<{ name: string; content: Buffer }> = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) return entries;
    expect(header.subarray(257, 263).toString('latin1')).toBe('ustar\0');
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim() || '0', 8);
    entries.push({ name, content: tar.subarray(at + 512, at + 512 + size) });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error('the tar has no end-of-archive blocks');
}

/** What GNU tar (an auditor's tool) lists, or throws. */
function gnuTarList(gz: Buffer): string[] {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-pkg-')), 'package.tar.gz');
  fs.writeFileSync(file, gz);
  try {
    return execFileSync('tar', ['-tzf', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim().split('\n');
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/** A loopback port nothing listens on (taken, then released). */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function s3Env(endpoint: string): Record<string, string> {
  return {
    EVIDENCE_S3_ENDPOINT: endpoint,
    EVIDENCE_S3_BUCKET: BUCKET,
    EVIDENCE_S3_REGION: 'eu-west-1',
    EVIDENCE_S3_ACCESS_KEY_ID: 'S3RVER',
    EVIDENCE_S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
}

/**
 * Attachments in an S3-compatible bucket: a real S3 server (s3rver, keeping objects as files in a temp folder)
 * started here, the real service in front of it, and the real HTTP routes the CLI uses.
 */
describe('evidence in an S3-compatible bucket', () => {
  let s3dir: string;
  let s3: any;
  let s3port: number;
  let t: TestApp;
  let org: TestOrg;

  /** Where s3rver keeps the bytes of an object (its on-disk layout: `<key>._S3rver_object`). */
  const objectFile = (digest: string) => path.join(s3dir, BUCKET, 'sha256', `${digest}._S3rver_object`);
  const evidencePath = (flow: string, trail: string, id: string) => `/api/v2/attestations/${org.name}/${flow}/trail/${trail}/attestation/${id}/evidence`;

  async function attest(app: TestApp, flow: string, trail: string, name: string, content?: Buffer) {
    return postGeneric(app, org.adminKey, org.name, flow, trail, { attestation_name: name, is_compliant: true }, content ? { content, filename: `${name}.bin` } : undefined);
  }

  async function attestationId(flow: string, name: string): Promise<string> {
    const res = await t.http().get(`/api/v2/attestations/${org.name}/${flow}`).set(...bearer(org.adminKey)).expect(200);
    return res.body.data.find((a: any) => a.attestation_name === name).attestation_id;
  }

  beforeAll(async () => {
    s3dir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-s3rver-'));
    s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3dir, configureBuckets: [{ name: BUCKET }] });
    s3port = (await s3.run()).port;
    t = await startTestApp(s3Env(`http://127.0.0.1:${s3port}`));
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    fs.rmSync(s3dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    org = await createOrg(t);
  });

  it('stores an attachment as an object named by its sha256 and serves the same bytes back', async () => {
    const flow = uniqueName('flow');
    // The trail exists, so the small file takes the one-statement group write (object put ahead of the
    // statement); the large one (above the spill threshold and the group's 1 MB) its own transaction, from a
    // temp file.
    expect((await attest(t, flow, 't1', 'begin')).status).toBe(201);
    for (const content of [Buffer.from('unit test report: 42 passed\n'), randomBytes(1536 * 1024)]) {
      const name = `report-${content.length}`;
      expect((await attest(t, flow, 't1', name, content)).status).toBe(201);
      const digest = sha256(content);
      expect(fs.readFileSync(objectFile(digest)).equals(content)).toBe(true);
      // Its row (which attestations reference) says how large it is, and that the bytes are elsewhere.
      expect(await t.dataSource.query(`SELECT size::int, content FROM evidence_blobs WHERE sha256 = decode($1, 'hex')`, [digest])).toEqual([{ size: content.length, content: null }]);

      const download = await t.http().get(evidencePath(flow, 't1', await attestationId(flow, name))).set(...bearer(org.adminKey)).buffer(true).parse(binary);
      expect(download.status).toBe(200);
      expect(Number(download.headers['content-length'])).toBe(content.length);
      expect(download.body.equals(content)).toBe(true);
    }
  });

  it('stores the same bytes attached twice once, and both attestations serve them', async () => {
    const flow = uniqueName('flow');
    const content = Buffer.from(`shared evidence ${randomBytes(8).toString('hex')}`);
    await Promise.all([attest(t, flow, 't1', 'first', content), attest(t, flow, 't2', 'second', content)]).then((all) => all.forEach((r) => expect(r.status).toBe(201)));
    expect(fs.readdirSync(path.dirname(objectFile(sha256(content)))).filter((f) => f === `${sha256(content)}._S3rver_object`)).toHaveLength(1);
    const second = await t.http().get(evidencePath(flow, 't2', await attestationId(flow, 'second'))).set(...bearer(org.adminKey)).buffer(true).parse(binary);
    expect(second.body.equals(content)).toBe(true);
  });

  it('stores nothing when a spilled upload\'s temp file no longer matches the sha256 the attestation would record: no object, no row, no moment', async () => {
    const flow = uniqueName('flow');
    expect((await attest(t, flow, 't1', 'first')).status).toBe(201);
    const [{ id: orgId }] = await t.dataSource.query(`SELECT id FROM organizations WHERE name = $1`, [org.name]);
    const batcher = t.app.get(AttestationBatcher, { strict: false });
    const generic = t.app.get(AttestationTypeRegistry, { strict: false }).get('generic')!;
    const hashed = Buffer.from('the bytes that were uploaded and hashed');
    const altered = Buffer.from('the bytes found when storing, altered!!');
    expect(altered.length).toBe(hashed.length);
    // An upload past the spill threshold waits in a temp file: bytes changed there since they were hashed.
    const tempPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-spill-')), 'upload');
    fs.writeFileSync(tempPath, altered);
    const evidence = new StagedEvidence(createHash('sha256').update(hashed).digest(), hashed.length, 'report.txt', 'text/plain', null, tempPath);

    await expect(
      batcher.record({ orgId, flowName: flow, trailName: 't1', actor: org.adminEmail, type: generic, data: { attestation_name: 'tampered', is_compliant: true }, evidence }),
    ).rejects.toMatchObject({ code: 'evidence_digest_mismatch' });
    fs.rmSync(path.dirname(tempPath), { recursive: true, force: true });

    for (const digest of [sha256(hashed), sha256(altered)]) {
      expect(fs.existsSync(objectFile(digest))).toBe(false);
      expect(await countRows(t, `SELECT 1 FROM evidence_blobs WHERE sha256 = decode($1, 'hex')`, [digest])).toBe(0);
    }
    expect(await countRows(t, `SELECT 1 FROM attestations a JOIN flows f ON f.id = a.flow_id WHERE f.org_id = $1 AND a.name = 'tampered'`, [orgId])).toBe(0);
    const trail = await t.http().get(`/api/v2/trails/${org.name}/${flow}/t1`).set(...bearer(org.adminKey)).expect(200);
    expect(JSON.stringify(trail.body)).not.toContain('tampered');
    expect(await countRows(t, `SELECT 1 FROM trail_moments m JOIN trails t ON t.id = m.trail_id JOIN flows f ON f.id = t.flow_id WHERE f.org_id = $1`, [orgId])).toBe(2);
  });

  it('refuses an object corrupted in the bucket instead of serving it', async () => {
    const flow = uniqueName('flow');
    const content = Buffer.from(`release checklist ${randomBytes(8).toString('hex')}: signed`);
    expect((await attest(t, flow, 't1', 'checklist', content)).status).toBe(201);
    const corrupted = Buffer.from(content);
    corrupted[corrupted.length - 1] ^= 0x01;
    fs.writeFileSync(objectFile(sha256(content)), corrupted);

    const res = await t.http().get(evidencePath(flow, 't1', await attestationId(flow, 'checklist'))).set(...bearer(org.adminKey)).buffer(true).parse(binary);
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBeUndefined();
    const body = JSON.parse(res.body.toString('utf8'));
    expect(body).toEqual({ message: expect.stringContaining('does not match its sha256'), errors: null });
    expect(res.body.includes(corrupted)).toBe(false);
  });

  it('serves attachments stored in PostgreSQL before the switch to a bucket, and refuses one corrupted there', async () => {
    const before = await startTestApp();
    try {
      const flow = uniqueName('flow');
      const content = Buffer.from(`stored before the bucket ${randomBytes(8).toString('hex')}`);
      expect((await attest(before, flow, 't1', 'older', content)).status).toBe(201);
      const url = evidencePath(flow, 't1', await attestationId(flow, 'older'));
      const served = await t.http().get(url).set(...bearer(org.adminKey)).buffer(true).parse(binary);
      expect(served.status).toBe(200);
      expect(served.body.equals(content)).toBe(true);

      // Tampering behind the service's back: the append-only trigger is bypassed as only a superuser can.
      await t.dataSource.transaction(async (m) => {
        await m.query(`SET LOCAL session_replication_role = replica`);
        await m.query(`UPDATE evidence_blobs SET content = $2 WHERE sha256 = decode($1, 'hex')`, [sha256(content), Buffer.alloc(content.length, 0x78)]);
      });
      for (const app of [t, before]) {
        const refused = await app.http().get(url).set(...bearer(org.adminKey));
        expect(refused.status).toBe(500);
        expect(refused.body).toEqual({ message: expect.stringContaining('does not match its sha256'), errors: null });
      }
    } finally {
      await before.close();
    }
  });

  it('back on PostgreSQL: a blob whose bytes stayed in the bucket is a named 500 until the same bytes come again, which fill its row', async () => {
    const flow = uniqueName('flow');
    expect((await attest(t, flow, 't1', 'begin')).status).toBe(201);
    // Small (the one-statement group, blob rows put ahead) and large (its own transaction, PostgresEvidenceStore.put).
    const files = [Buffer.from(`kept in the bucket ${randomBytes(8).toString('hex')}`), randomBytes(1536 * 1024)];
    for (const [i, content] of files.entries()) expect((await attest(t, flow, 't1', `in-bucket-${i}`, content)).status).toBe(201);
    const lines: string[] = [];
    const back = await startTestApp({}, { logger: new JsonLogger('error', 'json', (line) => lines.push(line)) });
    try {
      for (const [i, content] of files.entries()) {
        const url = evidencePath(flow, 't1', await attestationId(flow, `in-bucket-${i}`));
        const missing = await back.http().get(url).set(...bearer(org.adminKey));
        expect(missing.status).toBe(500);
        const message = `The evidence file ${sha256(content)} is missing from the evidence store and cannot be served`;
        expect(missing.body).toEqual({ message, errors: null });
        // Logged at error level by its code, with no stack (a known failure, not an unexpected one).
        expect(lines.map((l) => JSON.parse(l))).toContainEqual({ time: expect.any(String), level: 'error', msg: 'evidence missing', request_id: expect.any(String), error: message });

        expect((await attest(back, flow, 't1', `again-${i}`, content)).status).toBe(201);
        for (const name of [`in-bucket-${i}`, `again-${i}`]) {
          const served = await back.http().get(evidencePath(flow, 't1', await attestationId(flow, name))).set(...bearer(org.adminKey)).buffer(true).parse(binary);
          expect(served.status).toBe(200);
          expect(served.body.equals(content)).toBe(true);
        }
      }
    } finally {
      await back.close();
    }

    // A group of attestations with several files (PostgresEvidenceStore.putMany) fills such rows too.
    const pg = t.app.get(PostgresEvidenceStore, { strict: false });
    const group = [0, 1].map((i) => Buffer.from(`group file ${i} ${randomBytes(8).toString('hex')}`));
    for (const content of group) await t.dataSource.query(`INSERT INTO evidence_blobs (sha256, size, content) VALUES (decode($1, 'hex'), $2, NULL)`, [sha256(content), content.length]);
    await t.dataSource.transaction((m) =>
      pg.putMany(m, group.map((content) => new StagedEvidence(Buffer.from(sha256(content), 'hex'), content.length, 'f.txt', 'text/plain', content, null))),
    );
    for (const content of group) {
      expect(await t.dataSource.query(`SELECT content FROM evidence_blobs WHERE sha256 = decode($1, 'hex')`, [sha256(content)])).toEqual([{ content }]);
    }

    // The one change the append-only trigger allows: a row without content given bytes of its own SHA-256 and size.
    const content = Buffer.from(`copied from the bucket ${randomBytes(8).toString('hex')}`);
    const digest = Buffer.from(sha256(content), 'hex');
    await t.dataSource.query(`INSERT INTO evidence_blobs (sha256, size, content) VALUES ($1, $2, NULL)`, [digest, content.length]);
    const fill = (bytes: Buffer) => t.dataSource.query(`UPDATE evidence_blobs SET content = $2 WHERE sha256 = $1`, [digest, bytes]);
    await expect(fill(Buffer.alloc(content.length, 0x78))).rejects.toThrow(/append-only: UPDATE on evidence_blobs is refused/);
    await expect(t.dataSource.query(`UPDATE evidence_blobs SET size = size + 1 WHERE sha256 = $1`, [digest])).rejects.toThrow(/append-only/);
    await fill(content);
    await expect(fill(content)).rejects.toThrow(/append-only: UPDATE on evidence_blobs is refused/);
    await expect(t.dataSource.query(`UPDATE evidence_blobs SET content = NULL WHERE sha256 = $1`, [digest])).rejects.toThrow(/append-only/);
    await expect(t.dataSource.query(`DELETE FROM evidence_blobs WHERE sha256 = $1`, [digest])).rejects.toThrow(/append-only: DELETE on evidence_blobs is refused/);
  });

  async function auditPackage(app: TestApp, flow: string): Promise<Buffer> {
    const res = await app.http().get(`/api/v2/trails/${org.name}/${flow}/t1/audit_package`).set(...bearer(org.adminKey)).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    return res.body as Buffer;
  }

  it('writes an object truncated or replaced in the bucket again when the same bytes are uploaded, instead of naming it', async () => {
    const flow = uniqueName('flow');
    const content = Buffer.from(`release checklist ${randomBytes(8).toString('hex')}: signed`);
    expect((await attest(t, flow, 't1', 'one', content)).status).toBe(201);
    fs.writeFileSync(objectFile(sha256(content)), content.subarray(0, 5));
    expect((await attest(t, flow, 't1', 'two', content)).status).toBe(201);
    expect(fs.readFileSync(objectFile(sha256(content))).equals(content)).toBe(true);

    // Other bytes of the same length put under the key through the S3 API: the ETag (an MD5) tells them apart.
    const client = new S3Client({ region: 'eu-west-1', endpoint: `http://127.0.0.1:${s3port}`, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    try {
      await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `sha256/${sha256(content)}`, Body: Buffer.alloc(content.length, 0x78) }));
    } finally {
      client.destroy();
    }
    expect((await attest(t, flow, 't1', 'three', content)).status).toBe(201);
    for (const name of ['one', 'two', 'three']) {
      const download = await t.http().get(evidencePath(flow, 't1', await attestationId(flow, name))).set(...bearer(org.adminKey)).buffer(true).parse(binary);
      expect(download.status).toBe(200);
      expect(download.body.equals(content)).toBe(true);
    }
  });

  it('an object missing from the bucket: its download is a 500 saying so, the audit package lists it in missing_evidence and stays whole', async () => {
    const flow = uniqueName('flow');
    const content = Buffer.from(`gone ${randomBytes(8).toString('hex')}`);
    expect((await attest(t, flow, 't1', 'gone', content)).status).toBe(201);
    expect((await attest(t, flow, 't1', 'plain')).status).toBe(201);
    fs.rmSync(objectFile(sha256(content)));

    const download = await t.http().get(evidencePath(flow, 't1', await attestationId(flow, 'gone'))).set(...bearer(org.adminKey));
    expect(download.status).toBe(500);
    expect(download.body).toEqual({ message: `The evidence file ${sha256(content)} is missing from the evidence store and cannot be served`, errors: null });

    const gz = await auditPackage(t, flow);
    const names = tarEntries(gz).map((e) => e.name);
    expect(gnuTarList(gz)).toEqual(names);
    expect(names).toContain('manifest.json');
    expect(names).not.toContain(`evidence/${sha256(content)}`);
    const manifest = JSON.parse(tarEntries(gz).find((e) => e.name === 'manifest.json')!.content.toString('utf8'));
    expect(manifest.missing_evidence).toEqual([
      { attestation_id: await attestationId(flow, 'gone'), sha256: sha256(content), reason: expect.stringContaining('missing from the evidence store') },
    ]);
    for (const name of ['gone', 'plain']) expect(names).toContain(`attestations/${await attestationId(flow, name)}.json`);
  });

  it('a bucket connection that drops midway through an object: the entry is padded to its size, the evidence listed as missing, every later file readable', async () => {
    const flow = uniqueName('flow');
    const content = randomBytes(3 * 1024 * 1024);
    expect((await attest(t, flow, 't1', 'big', content)).status).toBe(201);
    for (const name of ['after-1', 'after-2']) expect((await attest(t, flow, 't1', name)).status).toBe(201);
    // A proxy in front of the bucket that cuts every GET of an object after about 200 KB.
    const proxy = http.createServer((req, res) => {
      const up = http.request({ host: '127.0.0.1', port: s3port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        if (req.method !== 'GET' || !req.url!.includes('/sha256/')) return void answer.pipe(res);
        let sent = 0;
        answer.on('data', (chunk: Buffer) => {
          if (sent > 200 * 1024) return;
          sent += chunk.length;
          res.write(chunk);
          if (sent > 200 * 1024) setTimeout(() => res.socket?.destroy(), 50);
        });
      });
      req.pipe(up);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const lines: string[] = [];
    const viaProxy = await startTestApp(s3Env(`http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`), {
      logger: new JsonLogger('error', 'json', (line) => lines.push(line)),
    });
    try {
      const gz = await auditPackage(viaProxy, flow);
      const entries = tarEntries(gz);
      expect(gnuTarList(gz)).toEqual(entries.map((e) => e.name));
      const evidence = entries.find((e) => e.name === `evidence/${sha256(content)}`)!;
      expect(evidence.content.length).toBe(content.length);
      const manifest = JSON.parse(entries.find((e) => e.name === 'manifest.json')!.content.toString('utf8'));
      expect(manifest.files[`evidence/${sha256(content)}`]).toBeUndefined();
      expect(manifest.missing_evidence).toEqual([
        { attestation_id: await attestationId(flow, 'big'), sha256: sha256(content), reason: expect.stringMatching(/^the store failed while the bytes were read \(\d+ of 3145728 bytes\): Evidence store temporarily unavailable/) },
      ]);
      // Every other file is whole: its bytes are the SHA-256 the manifest lists.
      for (const e of entries) if (e.name !== 'manifest.json' && manifest.files[e.name]) expect(sha256(e.content)).toBe(manifest.files[e.name]);
      for (const name of ['big', 'after-1', 'after-2']) expect(manifest.files[`attestations/${await attestationId(flow, name)}.json`]).toBeDefined();
      // The operator is told too, at error level.
      expect(lines.map((l) => JSON.parse(l))).toContainEqual(
        expect.objectContaining({ level: 'error', msg: 'evidence not packaged', org: org.name, sha256: sha256(content), reason: manifest.missing_evidence[0].reason }),
      );
    } finally {
      await viaProxy.close();
      proxy.close();
    }
  });

  describe('with the bucket unreachable', () => {
    let down: TestApp;
    beforeAll(async () => {
      down = await startTestApp(s3Env(`http://127.0.0.1:${await deadPort()}`));
    });
    afterAll(async () => {
      await down?.close();
    });

    it('answers 503 with Retry-After and the error body, for an upload (storing nothing) and for a download', async () => {
      const flow = uniqueName('flow');
      const content = Buffer.from('evidence while the store is down');
      expect((await attest(t, flow, 't1', 'stored-earlier', content)).status).toBe(201);

      const upload = await attest(down, flow, 't1', 'during-outage', Buffer.from(`new evidence ${randomBytes(8).toString('hex')}`));
      expect(upload.status).toBe(503);
      expect(upload.headers['retry-after']).toBe('5');
      expect(upload.body).toEqual({ message: 'Evidence store temporarily unavailable, please retry', errors: null });
      expect(await countRows(t, `SELECT 1 FROM attestations a JOIN flows f ON f.id = a.flow_id JOIN organizations o ON o.id = f.org_id WHERE o.name = $1 AND a.name = 'during-outage'`, [org.name])).toBe(0);

      const download = await down.http().get(evidencePath(flow, 't1', await attestationId(flow, 'stored-earlier'))).set(...bearer(org.adminKey));
      expect(download.status).toBe(503);
      expect(download.headers['retry-after']).toBe('5');
      expect(download.body).toEqual({ message: 'Evidence store temporarily unavailable, please retry', errors: null });

      // Attestations without a file do not need the store.
      expect((await attest(down, flow, 't1', 'no-file')).status).toBe(201);
    });
  });
});
