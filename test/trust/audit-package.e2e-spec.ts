import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { runVerifyCli } from '../../libs/transparency/verifier/run-cli';
import { LogSigner } from '../../src/modules/evidence-log/evidence-log.module';
import { FP, postGeneric, reportArtifact } from '../support/attestation-helpers';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { ALLOW_IF_UNIT_PASSES, evaluate } from '../support/evaluation-helpers';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** A tar.gz's entries, name and bytes (ustar headers read here directly, not through the library the service uses). */
function tarEntries(gz: Buffer): Array<{ name: string; content: Buffer }> {
  const tar = gunzipSync(gz);
  const entries: Array<{ name: string; content: Buffer }> = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const prefix = header.subarray(345, 500).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim() || '0', 8);
    entries.push({ name: prefix ? `${prefix}/${name}` : name, content: tar.subarray(at + 512, at + 512 + size) });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

/** Names of a tar.gz's entries. */
function tarNames(gz: Buffer): string[] {
  return tarEntries(gz).map((e) => e.name);
}

/** One file of a tar.gz, as text. */
function tarFile(gz: Buffer, wanted: string): string {
  const entry = tarEntries(gz).find((e) => e.name === wanted);
  if (!entry) throw new Error(`${wanted} is not in the package`);
  return entry.content.toString('utf8');
}

describe('audit packages and verify package (with tampering)', () => {
  let t: TestApp;
  let org: TestOrg;
  let signer: LogSigner;
  let dir: string;
  let vkey: string;
  const ids: Record<string, string> = {};
  const attachment = Buffer.from('the build log, exactly as uploaded\n'.repeat(100));

  beforeAll(async () => {
    t = await startTestApp({ LOG_ORIGIN: 'log.example.test', LOG_CHECKPOINT_INTERVAL_MS: '3600000' });
    signer = t.app.get(LogSigner, { strict: false });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-package-'));
    org = await createOrg(t, { features: ['evaluations', 'trail_moments'] });
    await t.http().put(`/api/v2/flows/${org.name}`).set(...bearer(org.adminKey)).send({ name: 'app' }).expect(201);
    await t.http().put(`/api/v2/trails/${org.name}/app`).set(...bearer(org.adminKey)).field('data_json', JSON.stringify({ name: 't1' })).expect(201);
    for (const name of ['unit', 'lint', 'scan', 'docs']) {
      await postGeneric(t, org.adminKey, org.name, 'app', 't1', { attestation_name: name, is_compliant: true }, name === 'scan' ? { content: attachment, filename: 'scan.log' } : undefined).expect(201);
    }
    const list = await t.http().get(`/api/v2/attestations/${org.name}/app`).set(...bearer(org.adminKey)).expect(200);
    for (const a of list.body.data) ids[a.attestation_name] = a.attestation_id;
    const created = await evaluate(t, org, { context: { trails: [{ flow: 'app', trail: 't1' }] }, policy: { files: { 'policy.rego': ALLOW_IF_UNIT_PASSES } } }).expect(201);
    await waitFor(async () => (await t.http().get(`/api/v2/evaluations/${org.name}/${created.body.id}`).set(...bearer(org.adminKey))).body.status === 'completed', { what: 'evaluation completed' });
    const keys = await t.http().get('/api/v2/log/keys').expect(200);
    vkey = keys.body.keys.find((k: any) => k.active).vkey;
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Signs a checkpoint covering everything (waiting for integration), then downloads the package to a file. */
  async function download(name: string, route = `/api/v2/trails/${org.name}/app/t1/audit_package`, last = ids.docs): Promise<string> {
    await waitFor(
      async () => {
        await signer.signDue();
        const lookup = await t.http().get(`/api/v2/log/${org.name}/lookup`).query({ kind: 'attestation', id: last }).set(...bearer(org.adminKey));
        const cp = await t.http().get(`/api/v2/log/${org.name}/checkpoint`).set(...bearer(org.adminKey));
        return lookup.body.index !== null && Number(cp.text.split('\n')[1]) > lookup.body.index;
      },
      { what: 'log integrated and signed' },
    );
    const res = await t
      .http()
      .get(route)
      .set(...bearer(org.adminKey))
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    const file = path.join(dir, name);
    fs.writeFileSync(file, res.body as Buffer);
    return file;
  }

  async function verify(args: string[]): Promise<{ code: number; out: string }> {
    const out: string[] = [];
    const code = await runVerifyCli(args, { out: (l) => out.push(l), err: (l) => out.push(l), env: {} });
    return { code, out: out.join('\n') };
  }

  it('holds exactly the files of the layout, and verifies with the log key', async () => {
    const file = await download('clean.tar.gz');
    const names = tarNames(fs.readFileSync(file));
    const evaluationFiles = names.filter((n) => n.startsWith('evaluations/'));
    expect(evaluationFiles.map((n) => n.replace(/^evaluations\/[^.]+/, '<id>')).sort()).toEqual(['<id>.dsse.json', '<id>.input.json', '<id>.json']);
    expect(names).toEqual(
      expect.arrayContaining([
        'manifest.json',
        'trail.json',
        'README.txt',
        'log/checkpoint',
        'log/keys.json',
        ...Object.values(ids).map((id) => `attestations/${id}.json`),
        `evidence/${sha256(attachment)}`,
        'policies/' + names.find((n) => n.startsWith('policies/'))!.split('/')[1] + '/policy.rego',
      ]),
    );
    // Six records (the trail begun, over its moment 1; four attestations; one evaluation), each with a leaf and a proof.
    expect(names).toContain('moments/t1/1.json');
    expect(names.filter((n) => n.startsWith('log/leaves/'))).toHaveLength(6);
    expect(names.filter((n) => n.startsWith('log/proofs/'))).toHaveLength(6);
    const manifest = JSON.parse(tarFile(fs.readFileSync(file), 'manifest.json'));
    expect(manifest.records.filter((r: any) => r.kind === 'trail')).toEqual([{ kind: 'trail', id: expect.stringMatching(/@1$/), file: 'moments/t1/1.json', index: expect.any(Number) }]);
    const moment = await t.http().get(`/api/v2/trails/${org.name}/app/t1/moments/1`).set(...bearer(org.adminKey)).expect(200);
    expect(JSON.parse(tarFile(fs.readFileSync(file), 'moments/t1/1.json'))).toEqual(moment.body);

    const ok = await verify(['package', file, '--key', vkey]);
    expect(ok.out).toMatch(/0 failed \(package verified\)/);
    expect(ok.code).toBe(0);
    const replayed = await verify(['package', file, '--key', vkey, '--replay']);
    expect(replayed.out).toMatch(/replayed/);
    expect(replayed.code).toBe(0);

    // Without a key the user trusts, nothing is accepted; the package's own keys only when asked, and said so.
    const wrongKey = await verify(['package', file, '--key', 'log.example.test+00000000+AQ' + Buffer.alloc(32, 1).toString('base64')]);
    expect(wrongKey.code).not.toBe(0);
    const own = await verify(['package', file, '--trust-package-keys']);
    expect(own.code).toBe(0);
    expect(own.out).toMatch(/--trust-package-keys/);
  });

  it('packages an artifact: its record and its own attestations only', async () => {
    await t.http().put(`/api/v2/trails/${org.name}/app`).set(...bearer(org.adminKey)).field('data_json', JSON.stringify({ name: 't2' })).expect(201);
    await reportArtifact(t, org.adminKey, org.name, 'app', 't2', FP('c'), 'image');
    await postGeneric(t, org.adminKey, org.name, 'app', 't2', { attestation_name: 'sbom', is_compliant: true, artifact_fingerprint: FP('c') }).expect(201);
    await postGeneric(t, org.adminKey, org.name, 'app', 't2', { attestation_name: 'trail-level', is_compliant: true }).expect(201);
    const list = await t.http().get(`/api/v2/attestations/${org.name}/app`).set(...bearer(org.adminKey)).expect(200);
    const sbom = list.body.data.find((a: any) => a.attestation_name === 'sbom').attestation_id;
    const trailLevel = list.body.data.find((a: any) => a.attestation_name === 'trail-level').attestation_id;
    const file = await download('artifact.tar.gz', `/api/v2/artifacts/${org.name}/app/${FP('c')}/audit_package`, trailLevel);
    const names = tarNames(fs.readFileSync(file));
    expect(names).toContain('artifact.json');
    expect(names).not.toContain('trail.json');
    expect(names.filter((n) => n.startsWith('attestations/'))).toEqual([`attestations/${sbom}.json`]);
    // Its report (kind artifact), over the moment of t2 it made; not the trail's own entries.
    const manifest = JSON.parse(tarFile(fs.readFileSync(file), 'manifest.json'));
    const artifactId = JSON.parse(tarFile(fs.readFileSync(file), 'artifact.json')).id;
    expect(manifest.records.filter((r: any) => r.kind === 'artifact' || r.kind === 'trail')).toEqual([
      { kind: 'artifact', id: artifactId, file: expect.stringMatching(/^moments\/t2\/\d+\.json$/), index: expect.any(Number) },
    ]);
    const ok = await verify(['package', file, '--key', vkey]);
    expect(ok.out).toMatch(/0 failed/);
    expect(ok.code).toBe(0);
    await t.http().get(`/api/v2/artifacts/${org.name}/app/${FP('d')}/audit_package`).set(...bearer(org.adminKey)).expect(404);
  });

  it('reports a changed, a deleted, two reordered attestations and a swapped evidence file; verify log reports the rewritten history', async () => {
    const state = path.join(dir, 'monitor.json');
    const monitor = () => verify(['log', '--url', t.baseUrl, '--org', org.name, '--key', vkey, '--state', state, '--api-token', org.adminKey]);
    expect((await monitor()).code).toBe(0);

    // An operator with superuser access, the append-only triggers off.
    await t.dataSource.transaction(async (m) => {
      for (const table of ['attestations', 'evidence_blobs', 'log_entries', 'log_subtrees', 'log_checkpoints']) await m.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
      await m.query(`SET LOCAL session_replication_role = replica`);
      await m.query(`UPDATE attestations SET is_compliant = false WHERE id = $1`, [ids.unit]);
      await m.query(`DELETE FROM attestations WHERE id = $1`, [ids.lint]);
      await m.query(
        `UPDATE attestations a SET created_at = b.created_at FROM attestations b
          WHERE (a.id, b.id) IN (($1::uuid, $2::uuid), ($2::uuid, $1::uuid))`,
        [ids.scan, ids.docs],
      );
      await m.query(`UPDATE evidence_blobs SET content = $2 WHERE sha256 = $1`, [Buffer.from(sha256(attachment), 'hex'), Buffer.from('a different log\n')]);
      for (const table of ['attestations', 'evidence_blobs', 'log_entries', 'log_subtrees', 'log_checkpoints']) await m.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
    });
    const file = await download('tampered.tar.gz');
    const bad = await verify(['package', file, '--key', vkey]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain(`attestation ${ids.unit}: record changed since it was logged`);
    expect(bad.out).toContain(`attestation ${ids.lint}: logged at index`);
    expect(bad.out).toContain(`attestation ${ids.scan}: record changed since it was logged`);
    expect(bad.out).toContain(`attestation ${ids.docs}: record changed since it was logged`);
    expect(bad.out).toContain(`attestation ${ids.scan}: evidence ${sha256(attachment)} could not be packaged`);
    // Its bytes are streamed before their digest is known: the manifest does not vouch for them, it says why.
    const tampered = JSON.parse(tarFile(fs.readFileSync(file), 'manifest.json'));
    expect(tampered.files[`evidence/${sha256(attachment)}`]).toBeUndefined();
    expect(tampered.missing_evidence).toEqual([
      { attestation_id: ids.scan, sha256: sha256(attachment), reason: expect.stringMatching(/stored bytes do not match their SHA-256/) },
    ]);
    expect(bad.out).toContain(`evidence/${sha256(attachment)}: in the package but not in the manifest`);
    expect(bad.out).toMatch(/summary: \d+ checks passed, [1-9]\d* failed/);

    // The operator now rewrites the log itself to hide the deletion: drops the last entry and signs again.
    await t.dataSource.transaction(async (m) => {
      for (const table of ['log_entries', 'log_subtrees', 'log_checkpoints']) await m.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
      const [{ id: orgId }] = await m.query(`SELECT id FROM organizations WHERE name = $1`, [org.name]);
      const [{ n }] = await m.query(`SELECT count(*)::int AS n FROM log_entries WHERE org_id = $1`, [orgId]);
      await m.query(`DELETE FROM log_entries WHERE org_id = $1 AND idx = $2`, [orgId, n - 1]);
      await m.query(`DELETE FROM log_subtrees WHERE org_id = $1 AND start + (1::bigint << level) > $2`, [orgId, n - 1]);
      await m.query(`DELETE FROM log_checkpoints WHERE org_id = $1`, [orgId]);
      for (const table of ['log_entries', 'log_subtrees', 'log_checkpoints']) await m.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
    });
    await signer.signDue();
    const rewritten = await monitor();
    expect(rewritten.code).toBe(1);
    expect(rewritten.out).toMatch(/rewritten history/);
  });
});
