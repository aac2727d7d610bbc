import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';
import { buildLogEntry, canonicalJson, formatVerifierKey, MemoryTree, noteSigner, signCheckpoint } from '../src';
import { runVerifyCli } from './run-cli';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** A package as the service lays it out: two attestations (one with evidence), their leaves and proofs. */
/** `moment`: also the trail's moment 1 (kind trail), its leaf naming the given moment and flow. */
function makePackage(tamper: (files: Map<string, Buffer>) => void = () => undefined, moment?: { leafMoment: number; leafFlow: string }) {
  const signer = noteSigner('log.example', generateKeyPairSync('ed25519').privateKey);
  const evidence = Buffer.from('a build log\n');
  const records = [
    { attestation_id: 'a1', attestation_name: 'unit', trail_name: 't', evidence: { sha256: sha(evidence) } },
    { attestation_id: 'a2', attestation_name: 'lint', trail_name: 't', evidence: null },
  ];
  const tree = new MemoryTree();
  tree.appendData(Buffer.from('an entry of another trail'));
  const files = new Map<string, Buffer>();
  const manifestRecords = [];
  const entries = records.map((r) => buildLogEntry({ kind: 'attestation', org: 'acme', id: r.attestation_id, recordedAt: new Date(0), record: r, locators: { flow: 'f', trail: 't' } }));
  for (const [i, e] of entries.entries()) {
    const index = tree.appendLeafHash(e.leafHash);
    files.set(`attestations/${records[i].attestation_id}.json`, Buffer.from(canonicalJson(records[i])));
    files.set(`log/leaves/${index}.json`, Buffer.from(canonicalJson({ index, leaf: e.leaf, leaf_hash: e.leafHash.toString('base64') })));
    manifestRecords.push({ kind: 'attestation', id: records[i].attestation_id, file: `attestations/${records[i].attestation_id}.json`, index });
  }
  if (moment) {
    const record = { moment_number: 1, created_at: 0, template_id: null, compliance_status: {} };
    const e = buildLogEntry({ kind: 'trail', org: 'acme', id: 'trail-id@1', recordedAt: new Date(0), record, locators: { flow: moment.leafFlow, trail: 't', moment: moment.leafMoment } });
    const index = tree.appendLeafHash(e.leafHash);
    files.set('moments/t/1.json', Buffer.from(canonicalJson(record)));
    files.set(`log/leaves/${index}.json`, Buffer.from(canonicalJson({ index, leaf: e.leaf, leaf_hash: e.leafHash.toString('base64') })));
    manifestRecords.push({ kind: 'trail', id: 'trail-id@1', file: 'moments/t/1.json', index });
  }
  for (const r of manifestRecords) {
    files.set(`log/proofs/${r.index}.json`, Buffer.from(canonicalJson({ index: r.index, tree_size: tree.size, leaf_hash: tree.leafHash(r.index).toString('base64'), audit_path: tree.inclusionProof(r.index).map((h) => h.toString('base64')) })));
  }
  files.set(`evidence/${sha(evidence)}`, evidence);
  files.set('log/checkpoint', Buffer.from(signCheckpoint({ origin: 'log.example/acme', size: tree.size, rootHash: tree.root() }, [signer])));
  files.set('log/keys.json', Buffer.from(JSON.stringify({ keys: [{ vkey: formatVerifierKey(signer) }] })));
  const manifest = {
    org: 'acme',
    subject: { kind: 'trail', flow: 'f', trail: 't' },
    checkpoint: { size: tree.size, root_hash: tree.root().toString('base64') },
    records: manifestRecords,
    missing_records: [],
    missing_evidence: [],
    files: Object.fromEntries([...files].map(([name, bytes]) => [name, sha(bytes)])),
  };
  files.set('manifest.json', Buffer.from(JSON.stringify(manifest)));
  tamper(files);
  return { files, vkey: formatVerifierKey(signer) };
}

async function tarGz(files: Map<string, Buffer>): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((r) => pack.on('end', r));
  for (const [name, bytes] of files) pack.entry({ name }, bytes);
  pack.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

describe('verify package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verify-package-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function run(pkg: { files: Map<string, Buffer>; vkey: string }, extra: string[] = []) {
    const file = join(dir, `p${Math.random().toString(36).slice(2)}.tar.gz`);
    writeFileSync(file, await tarGz(pkg.files));
    const out: string[] = [];
    const code = await runVerifyCli(['package', file, ...extra, ...(extra.includes('--trust-package-keys') ? [] : ['--key', pkg.vkey])], { out: (l) => out.push(l), err: (l) => out.push(l), env: {} });
    return { code, out: out.join('\n') };
  }

  it('passes a package as the service writes it', async () => {
    const result = await run(makePackage());
    expect(result.out).toMatch(/0 failed \(package verified\)/);
    expect(result.code).toBe(0);
  });

  it("checks a trail's moment record: passes when its leaf names that moment of the package's flow, fails otherwise", async () => {
    const good = await run(makePackage(undefined, { leafMoment: 1, leafFlow: 'f' }));
    expect(good.out).toMatch(/0 failed \(package verified\)/);
    const otherMoment = await run(makePackage(undefined, { leafMoment: 2, leafFlow: 'f' }));
    expect(otherMoment.code).toBe(1);
    expect(otherMoment.out).toContain('trail trail-id@1: leaf 3 names moment 2 of flow f, not the packaged moment 1 of f');
    const otherFlow = await run(makePackage(undefined, { leafMoment: 1, leafFlow: 'g' }));
    expect(otherFlow.code).toBe(1);
    expect(otherFlow.out).toContain('names moment 1 of flow g');
  });

  it('reports a changed record, even with the manifest rewritten to match', async () => {
    const result = await run(
      makePackage((files) => {
        files.set('attestations/a2.json', Buffer.from(canonicalJson({ attestation_id: 'a2', attestation_name: 'lint', trail_name: 't', evidence: null, extra: 1 })));
        const manifest = JSON.parse(files.get('manifest.json')!.toString());
        manifest.files['attestations/a2.json'] = sha(files.get('attestations/a2.json')!);
        files.set('manifest.json', Buffer.from(JSON.stringify(manifest)));
      }),
    );
    expect(result.code).toBe(1);
    expect(result.out).toContain('attestation a2: record changed since it was logged');
    expect(result.out).toMatch(/summary: \d+ checks passed, 1 failed/);
  });

  it('reports swapped evidence and a file the manifest does not list', async () => {
    const result = await run(
      makePackage((files) => {
        const name = [...files.keys()].find((n) => n.startsWith('evidence/'))!;
        files.set(name, Buffer.from('another log\n'));
        files.set('extra.txt', Buffer.from('?'));
      }),
    );
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/evidence\/[0-9a-f]{64}: SHA-256 differs from the manifest/);
    expect(result.out).toMatch(/does not have that SHA-256/);
    expect(result.out).toContain('extra.txt: in the package but not in the manifest');
  });

  it('refuses a checkpoint signed by another key, and says so when the package\'s own keys are trusted', async () => {
    const pkg = makePackage();
    const other = formatVerifierKey(noteSigner('log.example', generateKeyPairSync('ed25519').privateKey));
    const wrong = await run({ ...pkg, vkey: other });
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/log\/checkpoint: signature not verified/);
    const own = await run(pkg, ['--trust-package-keys']);
    expect(own.code).toBe(0);
    expect(own.out).toMatch(/--trust-package-keys/);
  });

  it('is a usage error without a file or a key', async () => {
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l), env: {} };
    expect(await runVerifyCli(['package'], io)).toBe(2);
    expect(await runVerifyCli(['package', join(dir, 'x.tar.gz')], io)).toBe(2);
  });
});
