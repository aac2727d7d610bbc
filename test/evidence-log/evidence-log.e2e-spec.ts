import { createHash, createPublicKey, verify } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { canonicalJson, decodeHash, leafHash, MemoryTree, parseCheckpoint, verifyConsistency, verifyInclusion } from '../../libs/transparency/src';
import { runVerifyCli } from '../../libs/transparency/verifier/run-cli';
import { LogSigner } from '../../src/modules/evidence-log/evidence-log.module';
import { postGeneric } from '../support/attestation-helpers';
import { digest, envApi, pod } from '../support/env-helpers';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait';

const NO_ORG = '00000000-0000-4000-8000-00000000dead';
/** Every org's log begins with one entry: its first admin's key (a credential event, logged when the org is made). */
const FIRST = 1;
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Splits a signed note into its text (up to and including the last newline before the blank line) and signature lines. */
function splitNote(note: string): { body: string; sigs: Array<{ name: string; bytes: Buffer }> } {
  const at = note.indexOf('\n\n');
  const body = note.slice(0, at + 1);
  const sigs = note
    .slice(at + 2)
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const m = /^\u2014 (\S+) (\S+)$/.exec(line);
      if (!m) throw new Error(`bad signature line ${JSON.stringify(line)}`);
      return { name: m[1], bytes: Buffer.from(m[2], 'base64') };
    });
  return { body, sigs };
}

describe('evidence log (attestations)', () => {
  let t: TestApp;
  let org: TestOrg;
  let signer: LogSigner;
  let dataSource: DataSource;
  const origin = 'log.example.test';

  beforeAll(async () => {
    // The test runs the sequencer and the signer itself (signDue), so what each step sees is fixed.
    t = await startTestApp({ LOG_ORIGIN: origin, LOG_CHECKPOINT_INTERVAL_MS: '3600000', LOG_SEQUENCE_INTERVAL_MS: '60000' });
    signer = t.app.get(LogSigner, { strict: false });
    dataSource = t.dataSource;
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    org = await createOrg(t);
  });

  const get = (p: string, key = org.adminKey) => t.http().get(`/api/v2/log/${org.name}${p}`).set(...bearer(key));

  async function attest(flow: string, trail: string, name: string): Promise<string> {
    await postGeneric(t, org.adminKey, org.name, flow, trail, { attestation_name: name, is_compliant: true }).expect(201);
    const list = await t.http().get(`/api/v2/attestations/${org.name}/${flow}`).set(...bearer(org.adminKey)).expect(200);
    return list.body.data.find((a: any) => a.attestation_name === name).attestation_id;
  }

  async function keys() {
    const res = await t.http().get('/api/v2/log/keys').expect(200);
    return res.body.keys as Array<{ name: string; key_id: string; public_key: string; vkey: string; active: boolean }>;
  }

  it('serves a signed empty checkpoint before anything is logged, and the public keys without a credential', async () => {
    const [key] = (await keys()).filter((k) => k.active);
    expect(key).toMatchObject({ name: origin, algorithm: 'ed25519' });
    expect(key.vkey).toBe(`${origin}+${key.key_id}+${Buffer.concat([Buffer.from([1]), Buffer.from(key.public_key, 'base64')]).toString('base64')}`);
    const res = await get('/checkpoint').expect(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const { body } = splitNote(res.text);
    expect(body).toBe(`${origin}/${org.name}\n0\n${createHash('sha256').update('').digest('base64')}\n`);
  });

  it('logs each attestation with the SHA-256 of its read shape, signs checkpoints, and proves inclusion and consistency', async () => {
    const flow = uniqueName('flow');
    const first = await attest(flow, 't1', 'a1');
    await attest(flow, 't1', 'a2');
    await signer.signDue();
    const cp1 = (await get('/checkpoint').expect(200)).text;
    for (let i = 3; i <= 7; i++) await attest(flow, `t${i % 2}`, `a${i}`);
    await signer.signDue();
    const cp2 = (await get('/checkpoint').expect(200)).text;

    // The signature, checked by node:crypto over the note text's exact bytes with the published key.
    const [key] = (await keys()).filter((k) => k.active);
    const publicKey = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(key.public_key, 'base64')]), format: 'der', type: 'spki' });
    for (const note of [cp1, cp2]) {
      const { body, sigs } = splitNote(note);
      expect(sigs).toHaveLength(1);
      expect(sigs[0].name).toBe(origin);
      expect(sigs[0].bytes.subarray(0, 4).toString('hex')).toBe(key.key_id);
      expect(verify(null, Buffer.from(body, 'utf8'), publicKey, sigs[0].bytes.subarray(4))).toBe(true);
    }
    const c1 = parseCheckpoint(splitNote(cp1).body);
    const c2 = parseCheckpoint(splitNote(cp2).body);
    expect([c1.origin, c1.size, c2.size]).toEqual([`${origin}/${org.name}`, FIRST + 2, FIRST + 7]);
    // Each size's checkpoint is kept.
    expect((await get(`/checkpoint?size=${FIRST + 2}`).expect(200)).text).toBe(cp1);
    await get(`/checkpoint?size=${FIRST + 5}`).expect(404);

    // lookup -> the leaf names the record, and record_sha256 is the SHA-256 of the read route's element.
    const found = (await get(`/lookup?kind=attestation&id=${first}`).expect(200)).body;
    const leaf = JSON.parse(found.leaf);
    const read = await t.http().get(`/api/v2/attestations/${org.name}?attestation_id=${first}`).set(...bearer(org.adminKey)).expect(200);
    expect(leaf).toMatchObject({ v: 1, kind: 'attestation', org: org.name, id: first, flow, trail: 't1', moment: expect.any(Number) });
    expect(leaf.recorded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(leaf.record_sha256).toBe(createHash('sha256').update(canonicalJson(read.body.data[0]), 'utf8').digest('hex'));
    expect(canonicalJson(leaf)).toBe(found.leaf);
    expect(Buffer.from(found.leaf_hash, 'base64')).toEqual(leafHash(Buffer.from(found.leaf, 'utf8')));
    expect(found.index).toBe(FIRST);

    // Inclusion at the second checkpoint, by index and by leaf hash (hex), verified against its root.
    const size2 = FIRST + 7;
    const byIndex = (await get(`/proof/inclusion?index=${found.index}&tree_size=${size2}`).expect(200)).body;
    const byHash = (await get(`/proof/inclusion?leaf_hash=${Buffer.from(found.leaf_hash, 'base64').toString('hex')}&tree_size=${size2}`).expect(200)).body;
    expect(byHash).toEqual(byIndex);
    const path = byIndex.audit_path.map((h: string) => decodeHash(h)!);
    expect(verifyInclusion(FIRST, size2, leafHash(Buffer.from(found.leaf, 'utf8')), path, c2.rootHash)).toBe(true);
    expect(verifyInclusion(FIRST, size2, leafHash(Buffer.from(found.leaf.replace('"v":1', '"v":2'), 'utf8')), path, c2.rootHash)).toBe(false);

    // Every entry, and each one's proof.
    const entries = (await get('/entries?start=0&limit=1000').expect(200)).body;
    expect(entries.tree_size).toBe(size2);
    expect(entries.entries.map((e: any) => e.index)).toEqual(Array.from({ length: size2 }, (_, i) => i));
    expect(JSON.parse(entries.entries[0].leaf).kind).toBe('credential_event');
    for (const e of entries.entries) {
      const proof = (await get(`/proof/inclusion?index=${e.index}&tree_size=${size2}`).expect(200)).body;
      expect(verifyInclusion(e.index, size2, leafHash(Buffer.from(e.leaf, 'utf8')), proof.audit_path.map((h: string) => decodeHash(h)!), c2.rootHash)).toBe(true);
      // By its base64 leaf hash too, percent-encoded or as typed (a '+' then arrives as a space).
      expect((await get(`/proof/inclusion?leaf_hash=${encodeURIComponent(e.leaf_hash)}&tree_size=${size2}`).expect(200)).body).toEqual(proof);
      expect((await get(`/proof/inclusion?leaf_hash=${e.leaf_hash}&tree_size=${size2}`).expect(200)).body).toEqual(proof);
    }
    // A base64 hash with a '+' typed as is reads as that hash (unknown here: 404), not as a malformed one (400).
    const plus = Buffer.alloc(32, 0xfb).toString('base64');
    expect(plus).toContain('+');
    await get(`/proof/inclusion?leaf_hash=${plus}&tree_size=${size2}`).expect(404);

    // Consistency between the two checkpoints.
    const cons = (await get(`/proof/consistency?first=${c1.size}&second=${size2}`).expect(200)).body;
    expect(cons).toMatchObject({ first: c1.size, second: size2 });
    expect(verifyConsistency(c1.size, size2, c1.rootHash, c2.rootHash, cons.consistency_path.map((h: string) => decodeHash(h)!))).toBe(true);

    // Bad parameters are 400 with the error body; beyond the tree is 404.
    const zero = await get(`/proof/consistency?first=0&second=${size2}`).expect(400);
    expect(zero.body).toMatchObject({ message: expect.any(String), errors: { 'query.first': expect.any(String) } });
    await get('/proof/consistency?first=3&second=2').expect(400);
    await get(`/proof/consistency?first=2&second=${size2 + 1}`).expect(404);
    await get(`/proof/inclusion?index=0&tree_size=${size2 + 1}`).expect(404);
    await get(`/proof/inclusion?tree_size=${size2}`).expect(400);
    await get(`/proof/inclusion?leaf_hash=zz&tree_size=${size2}`).expect(400);
    await get(`/proof/inclusion?leaf_hash=${'0'.repeat(64)}&tree_size=${size2}`).expect(404);
    await get('/entries?start=0&limit=1001').expect(400);
    await get('/lookup?kind=attestation&id=nope').expect(404);
  });

  it('answers a lookup with index null until the sequencer integrates the entry, then with its index and the same leaf', async () => {
    const flow = uniqueName('flow');
    const id = await attest(flow, 't', 'queued');
    const before = (await get(`/lookup?kind=attestation&id=${id}`).expect(200)).body;
    expect(before.index).toBeNull();
    expect((await get('/entries?start=0&limit=10').expect(200)).body.tree_size).toBe(0);
    await signer.signDue();
    const after = (await get(`/lookup?kind=attestation&id=${id}`).expect(200)).body;
    expect(after).toEqual({ index: FIRST, leaf: before.leaf, leaf_hash: before.leaf_hash });
    const read = await t.http().get(`/api/v2/attestations/${org.name}?attestation_id=${id}`).set(...bearer(org.adminKey)).expect(200);
    expect(JSON.parse(after.leaf).record_sha256).toBe(createHash('sha256').update(canonicalJson(read.body.data[0]), 'utf8').digest('hex'));
  });

  it('logs concurrent writers gaplessly, one entry per attestation, and nothing for a refused one', async () => {
    const flow = uniqueName('flow');
    await attest(flow, 't0', 'first'); // creates the flow
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        postGeneric(t, org.adminKey, org.name, flow, `t${i % 3}`, { attestation_name: `c${i}`, is_compliant: i % 2 === 0 }).expect(201),
      ),
    );
    // Refused (unknown artifact): neither the attestation nor an entry is kept.
    await postGeneric(t, org.adminKey, org.name, flow, 't0', { attestation_name: 'x', artifact_fingerprint: 'a'.repeat(64), is_compliant: true }).expect(404);
    await signer.signDue();
    const entries = (await get('/entries?start=0&limit=1000').expect(200)).body;
    expect(entries.tree_size).toBe(FIRST + 25);
    expect(entries.entries.map((e: any) => e.index)).toEqual(Array.from({ length: FIRST + 25 }, (_, i) => i));
    const ids = new Set(entries.entries.slice(FIRST).map((e: any) => JSON.parse(e.leaf).id));
    const listed = await t.http().get(`/api/v2/attestations/${org.name}/${flow}?per_page=100`).set(...bearer(org.adminKey)).expect(200);
    expect(ids).toEqual(new Set(listed.body.data.map((a: any) => a.attestation_id)));
    // The signed root is the RFC 6962 root of exactly these leaves, in index order.
    const tree = new MemoryTree();
    for (const e of entries.entries) tree.appendData(Buffer.from(e.leaf, 'utf8'));
    const cp = parseCheckpoint(splitNote((await get('/checkpoint').expect(200)).text).body);
    expect(cp.size).toBe(FIRST + 25);
    expect(cp.rootHash).toEqual(tree.root());
  });

  it('refuses UPDATE and DELETE on the log tables, naming the rule', async () => {
    await attest(uniqueName('flow'), 't', 'a');
    await signer.signDue();
    // A stored subtree row (16 leaves and up are stored): one of an org that does not exist, to try on.
    await dataSource.query(`INSERT INTO log_subtrees (org_id, level, start, hash) VALUES ($1, 4, 0, $2)`, [NO_ORG, Buffer.alloc(32)]);
    for (const sql of [
      `UPDATE log_entries SET leaf = 'x' WHERE org_id = (SELECT id FROM organizations WHERE name = $1)`,
      `DELETE FROM log_entries WHERE org_id = (SELECT id FROM organizations WHERE name = $1)`,
      `UPDATE log_subtrees SET hash = hash WHERE org_id = '${NO_ORG}' AND $1::text IS NOT NULL`,
      `DELETE FROM log_subtrees WHERE org_id = '${NO_ORG}' AND $1::text IS NOT NULL`,
      `UPDATE log_checkpoints SET note = 'x' WHERE org_id = (SELECT id FROM organizations WHERE name = $1)`,
      `DELETE FROM log_checkpoints WHERE org_id = (SELECT id FROM organizations WHERE name = $1)`,
    ]) {
      await expect(dataSource.query(sql, [org.name])).rejects.toThrow(/append-only: (UPDATE|DELETE) on log_\w+ is refused/);
    }
    await expect(dataSource.query(`DELETE FROM log_signing_keys`)).rejects.toThrow(/append-only: DELETE on log_signing_keys/);
    await expect(dataSource.query(`UPDATE log_signing_keys SET public_key = public_key, name = name || 'x'`)).rejects.toThrow(/append-only/);
  });

  it('refuses UPDATE, DELETE and TRUNCATE on the evidence tables, naming the rule', async () => {
    const flow = uniqueName('flow');
    const content = Buffer.from(`evidence ${uniqueName('e')}`);
    await postGeneric(t, org.adminKey, org.name, flow, 't', { attestation_name: 'kept', is_compliant: true }, { content, filename: 'e.txt' }).expect(201);
    const ofOrg = `org_id = (SELECT id FROM organizations WHERE name = $1)`;
    for (const sql of [
      `UPDATE attestations SET is_compliant = false WHERE ${ofOrg}`,
      `DELETE FROM attestations WHERE ${ofOrg}`,
      `UPDATE trail_moments SET created_at = now() WHERE ${ofOrg}`,
      `DELETE FROM trail_moments WHERE ${ofOrg}`,
      `UPDATE evidence_blobs SET content = 'x' WHERE sha256 = (SELECT evidence_sha256 FROM attestations WHERE ${ofOrg})`,
      `DELETE FROM evidence_blobs WHERE sha256 = (SELECT evidence_sha256 FROM attestations WHERE ${ofOrg})`,
    ]) {
      await expect(dataSource.query(sql, [org.name])).rejects.toThrow(/append-only: (UPDATE|DELETE) on (attestations|trail_moments|evidence_blobs) is refused/);
    }
    // Every evidence table has both triggers (row: UPDATE and DELETE; statement: TRUNCATE).
    const rows: Array<{ table: string; n: string }> = await dataSource.query(
      `SELECT c.relname AS table, count(*) AS n FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
       JOIN pg_proc p ON p.oid = g.tgfoid WHERE p.proname IN ('evidence_append_only', 'evidence_blob_append_only')
       GROUP BY c.relname ORDER BY c.relname`,
    );
    expect(rows).toEqual(
      [
        'artifacts',
        'attestations',
        'control_versions',
        'credential_events',
        'custom_attestation_type_versions',
        'environment_events',
        'environment_snapshots',
        'evidence_blobs',
        'policy_versions',
        'trail_moments',
      ].map((table) => ({ table, n: '2' })),
    );
    // TRUNCATE is refused before anything goes (tried in a transaction that is rolled back whatever happens).
    await expect(
      dataSource.transaction(async (m) => {
        await m.query(`TRUNCATE log_entries, log_subtrees, log_checkpoints, log_signing_keys`);
        throw new Error('TRUNCATE went through');
      }),
    ).rejects.toThrow(/append-only: TRUNCATE on log_\w+ is refused/);
  });

  it('lets a run of an environment be ended once and refuses every other change to it (a snapshot\'s content is evidence)', async () => {
    const env = uniqueName('env');
    await envApi(t, org).create({ name: env, type: 'K8S', description: '' }).expect(201);
    await envApi(t, org).report(env, 'K8S', { artifacts: [pod('p', { web: digest(`${env}-web`) }), pod('q', { api: digest(`${env}-api`) })] }).expect(201);
    await envApi(t, org).report(env, 'K8S', { artifacts: [pod('q', { api: digest(`${env}-api`) })] }).expect(201); // web's run ends
    const ofEnv = `environment_id = (SELECT id FROM environments WHERE name = '${env}')`;
    const runs: Array<{ name: string; ended_snapshot: number | null }> = await dataSource.query(
      `SELECT name, ended_snapshot FROM environment_artifact_runs WHERE ${ofEnv} ORDER BY name`,
    );
    expect(runs.map((r) => [r.name, r.ended_snapshot])).toEqual([
      [expect.stringContaining('api'), null],
      [expect.stringContaining('web'), 2],
    ]);
    for (const sql of [
      `UPDATE environment_artifact_runs SET ended_snapshot = 3 WHERE ${ofEnv} AND ended_snapshot IS NOT NULL`, // an end moved
      `UPDATE environment_artifact_runs SET ended_snapshot = NULL WHERE ${ofEnv} AND ended_snapshot IS NOT NULL`, // an end taken back
      `UPDATE environment_artifact_runs SET compliant = NOT compliant WHERE ${ofEnv} AND ended_snapshot IS NULL`, // content changed
      `UPDATE environment_artifact_runs SET ended_snapshot = 3, instance_count = 9 WHERE ${ofEnv} AND ended_snapshot IS NULL`, // ended and changed
      `DELETE FROM environment_artifact_runs WHERE ${ofEnv}`,
    ]) {
      await expect(dataSource.query(sql)).rejects.toThrow(/append-only: (UPDATE|DELETE) on environment_artifact_runs is refused/);
    }
    await expect(
      dataSource.transaction(async (m) => {
        await m.query(`TRUNCATE environment_artifact_runs`);
        throw new Error('TRUNCATE went through');
      }),
    ).rejects.toThrow(/append-only: TRUNCATE on environment_artifact_runs is refused/);
    // The service's own change still goes through: the next report ends the other run.
    await envApi(t, org).report(env, 'K8S', { artifacts: [] }).expect(201);
    const after: Array<{ ended_snapshot: number | null }> = await dataSource.query(`SELECT ended_snapshot FROM environment_artifact_runs WHERE ${ofEnv} ORDER BY name`);
    expect(after.map((r) => r.ended_snapshot)).toEqual([3, 2]);
  });

  it("keeps one org's log apart from another's", async () => {
    const other = await createOrg(t);
    const id = await attest(uniqueName('flow'), 't', 'secret');
    await signer.signDue();
    const otherGet = (p: string) => t.http().get(`/api/v2/log/${other.name}${p}`).set(...bearer(other.adminKey));
    // The other org's log holds its own first entry only (its admin's key), never this org's attestation.
    const others = (await otherGet('/entries?start=0&limit=10').expect(200)).body;
    expect({ size: others.tree_size, kinds: others.entries.map((e: any) => JSON.parse(e.leaf).kind) }).toEqual({ size: FIRST, kinds: ['credential_event'] });
    expect(others.entries.map((e: any) => JSON.parse(e.leaf).org)).toEqual([other.name]);
    await otherGet(`/lookup?kind=attestation&id=${id}`).expect(404);
    await otherGet(`/proof/inclusion?index=${FIRST}&tree_size=${FIRST + 1}`).expect(404);
    expect(parseCheckpoint(splitNote((await otherGet('/checkpoint').expect(200)).text).body).size).toBe(FIRST);
    // And the other org's key reads nothing of this org's log.
    await t.http().get(`/api/v2/log/${org.name}/entries?start=0&limit=10`).set(...bearer(other.adminKey)).expect((r) => expect([401, 403, 404]).toContain(r.status));
  });

  it('passes the verify log monitor, which then sees the log grow consistently', async () => {
    const state = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'verify-log-')), 'state.json');
    const [key] = (await keys()).filter((k) => k.active);
    const run = async () => {
      const out: string[] = [];
      const code = await runVerifyCli(['log', '--url', t.baseUrl, '--org', org.name, '--key', key.vkey, '--state', state, '--api-token', org.adminKey], {
        out: (l) => out.push(l),
        err: (l) => out.push(l),
        env: {},
      });
      return { code, out: out.join('\n') };
    };
    await attest(uniqueName('flow'), 't', 'a');
    await signer.signDue();
    expect((await run()).code).toBe(0);
    await attest(uniqueName('flow'), 't', 'b');
    await attest(uniqueName('flow'), 't', 'c');
    await signer.signDue();
    const second = await run();
    expect(second.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(state, 'utf8'))).toMatchObject({ size: FIRST + 3 });
  });
});

describe('evidence log signing key', () => {
  it('is generated at first start into DATA_DIR with mode 0600, kept across restarts, and signs on the interval', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'log-key-'));
    const t = await startTestApp({ DATA_DIR: dataDir, LOG_CHECKPOINT_INTERVAL_MS: '50' });
    let vkey: string;
    try {
      const file = path.join(dataDir, 'log-signing-key.pem');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      vkey = (await t.http().get('/api/v2/log/keys').expect(200)).body.keys.find((k: any) => k.active).vkey;
      const org = await createOrg(t);
      await postGeneric(t, org.adminKey, org.name, 'f', 't', { attestation_name: 'a', is_compliant: true }).expect(201);
      await waitFor(async () => (await t.http().get(`/api/v2/log/${org.name}/checkpoint?size=${FIRST + 1}`).set(...bearer(org.adminKey))).status === 200, {
        what: 'the timer signs a checkpoint',
      });
    } finally {
      await t.close();
    }
    const again = await startTestApp({ DATA_DIR: dataDir });
    try {
      expect((await again.http().get('/api/v2/log/keys').expect(200)).body.keys.find((k: any) => k.active).vkey).toBe(vkey!);
    } finally {
      await again.close();
    }
  });
});
