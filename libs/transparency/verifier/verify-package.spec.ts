import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';
import { buildLogEntry, buildVsaStatement, canonicalJson, formatVerifierKey, MemoryTree, noteSigner, signCheckpoint, signStatement, VsaStatement } from '../src';
import { compareReplay } from './replay';
import { runVerifyCli } from './run-cli';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** A file replaced (or added) with the manifest rewritten to match: what a tamperer without the log key can do. */
function setFile(files: Map<string, Buffer>, name: string, content: string | Buffer) {
  files.set(name, Buffer.from(content));
  const manifest = JSON.parse(files.get('manifest.json')!.toString());
  manifest.files[name] = sha(files.get(name)!);
  files.set('manifest.json', Buffer.from(JSON.stringify(manifest)));
}

/** An attestation left out of the package: its record, leaf and proof, as if the package were not meant to hold it. */
function dropAttestation(files: Map<string, Buffer>, id: string) {
  const manifest = JSON.parse(files.get('manifest.json')!.toString());
  const record = manifest.records.find((r: { id: string }) => r.id === id);
  manifest.records = manifest.records.filter((r: { id: string }) => r.id !== id);
  for (const name of [record.file, `log/leaves/${record.index}.json`, `log/proofs/${record.index}.json`]) {
    files.delete(name);
    delete manifest.files[name];
  }
  files.set('manifest.json', Buffer.from(JSON.stringify(manifest)));
}

/** A signed decision e1 over trail t at moment 1 (as DecisionSigner signs one), with its record, input and bundle. */
interface EvaluationOptions {
  /** What the policy answers (the `unit` entry's is_compliant in the input): allow. Default true. */
  policyAllow?: boolean;
  /** evaluations/e1.json's result.allow. Default: policyAllow. */
  recordedAllow?: boolean;
  /** The signed verificationResult: PASSED iff this. Default: recordedAllow. */
  signedAllow?: boolean;
  /** Attestations of trail t the input held besides a1 and a2 (not in the package). */
  extraAttestations?: string[];
  /** Also evaluated: trail u of flow f (moment 4), holding attestation b1 (not in this package, by design). */
  otherTrail?: boolean;
  /** A listed digest instead of the input attestation's record_sha256. */
  listedDigest?: Record<string, string>;
  /** Changes the statement before it is signed. */
  editStatement?: (s: VsaStatement) => void;
  /**
   * An artifact's package instead: a1 is an attestation of the artifact of this fingerprint (under its status in
   * the input), a2 a trail-level one, which the artifact's package does not hold.
   */
  artifactFingerprint?: string;
}

const POLICY = `package policy

import rego.v1

default allow := false

allow if input.trails[0].compliance_status.attestations_statuses.unit.is_compliant
`;

/** A package as the service lays it out: two attestations (one with evidence), their leaves and proofs. */
/** `moment`: also the trail's moment 1 (kind trail), its leaf naming the given moment and flow. */
/** `evaluation`: also a signed decision (kind evaluation) that evaluated trail t with both attestations. */
function makePackage(tamper: (files: Map<string, Buffer>) => void = () => undefined, moment?: { leafMoment: number; leafFlow: string }, evaluation?: EvaluationOptions) {
  const signer = noteSigner('log.example', generateKeyPairSync('ed25519').privateKey);
  const evidence = Buffer.from('a build log\n');
  const records = [
    { attestation_id: 'a1', attestation_name: 'unit', trail_name: 't', evidence: { sha256: sha(evidence) }, ...(evaluation?.artifactFingerprint ? { artifact_fingerprint: evaluation.artifactFingerprint } : {}) },
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
  if (evaluation) {
    const policyAllow = evaluation.policyAllow ?? true;
    const recordedAllow = evaluation.recordedAllow ?? policyAllow;
    const signedAllow = evaluation.signedAllow ?? recordedAllow;
    const statuses: Record<string, unknown> = {
      unit: { attestation_id: 'a1', attestation_name: 'unit', trail_name: 't', is_compliant: policyAllow },
      lint: { attestation_id: 'a2', attestation_name: 'lint', trail_name: 't', is_compliant: true },
    };
    for (const id of evaluation.extraAttestations ?? []) statuses[id] = { attestation_id: id, attestation_name: id, trail_name: 't', is_compliant: true };
    const artifacts: Record<string, unknown> = {};
    const fingerprint = evaluation.artifactFingerprint;
    if (fingerprint) {
      artifacts.image = { artifact_fingerprint: fingerprint, attestations_statuses: { unit: { ...(statuses.unit as object), artifact_fingerprint: fingerprint } } };
      delete statuses.unit;
    }
    const elements = [{ flow_name: 'f', trail_name: 't', moment_number: 1, compliance_status: { attestations_statuses: statuses, artifacts_statuses: artifacts } }];
    if (evaluation.otherTrail) {
      elements.push({ flow_name: 'f', trail_name: 'u', moment_number: 4, compliance_status: { attestations_statuses: { scan: { attestation_id: 'b1', attestation_name: 'scan', trail_name: 'u', is_compliant: true } }, artifacts_statuses: {} } });
    }
    const input = { trails: elements };
    const policyHex = sha(canonicalJson({ 'policy.rego': sha(POLICY) }));
    const base = 'https://veritrail.example';
    const digestOf = (id: string) => {
      const record = records.find((r) => r.attestation_id === id);
      return evaluation.listedDigest?.[id] ?? (record ? sha(canonicalJson(record)) : sha(`the record of ${id}`));
    };
    const statement = buildVsaStatement({
      verifierId: base,
      veritrailVersion: '1.2.3',
      regoVersion: 'rego-test-1',
      timeVerified: '2023-11-14T22:13:20.123456Z',
      evaluationUrl: `${base}/api/v2/evaluations/acme/e1`,
      policySha256: policyHex,
      trails: elements.map((e) => ({ org: 'acme', flow: e.flow_name, trail: e.trail_name, moment: e.moment_number, input: e })),
      inputAttestations: ['a1', 'a2', ...(evaluation.extraAttestations ?? []), ...(evaluation.otherTrail ? ['b1'] : [])]
        .sort()
        .map((id) => ({ uri: `${base}/api/v2/attestations/acme?attestation_id=${id}`, recordSha256: digestOf(id) })),
      allowed: signedAllow,
    });
    evaluation.editStatement?.(statement);
    const signed = signStatement(statement, [signer]);
    const e = buildLogEntry({ kind: 'evaluation', org: 'acme', id: 'e1', recordedAt: '2023-11-14T22:13:20.123456Z', recordSha256: signed.sha256 });
    const index = tree.appendLeafHash(e.leafHash);
    files.set('evaluations/e1.dsse.json', Buffer.from(signed.canonical));
    files.set(`log/leaves/${index}.json`, Buffer.from(canonicalJson({ index, leaf: e.leaf, leaf_hash: e.leafHash.toString('base64') })));
    manifestRecords.push({ kind: 'evaluation', id: 'e1', file: 'evaluations/e1.dsse.json', index });
    files.set(
      'evaluations/e1.json',
      Buffer.from(
        canonicalJson({
          id: 'e1',
          status: 'completed',
          requested_at: 1700000000.1,
          recorded_at: 1700000000.123456,
          result: { allow: recordedAllow },
          control: null,
          verification: {
            policy_digest: `sha256:${policyHex}`,
            trails: elements.map((t) => ({ flow_name: t.flow_name, trail_name: t.trail_name, moment_number: t.moment_number })),
            input_digest: `sha256:${sha(canonicalJson(input))}`,
            result_digest: `sha256:${sha(canonicalJson({ allow: recordedAllow }))}`,
            engine: 'rego',
            engine_version: 'rego-test-1',
            recorded_at: '1700000000.123456',
          },
        }),
      ),
    );
    files.set('evaluations/e1.input.json', Buffer.from(`{"input":${canonicalJson(input)},"now_ns":"1700000000123456000","params":null}`));
    files.set(`policies/${policyHex}/policy.rego`, Buffer.from(POLICY));
  }
  for (const r of manifestRecords) {
    files.set(`log/proofs/${r.index}.json`, Buffer.from(canonicalJson({ index: r.index, tree_size: tree.size, leaf_hash: tree.leafHash(r.index).toString('base64'), audit_path: tree.inclusionProof(r.index).map((h) => h.toString('base64')) })));
  }
  files.set(`evidence/${sha(evidence)}`, evidence);
  files.set('log/checkpoint', Buffer.from(signCheckpoint({ origin: 'log.example/acme', size: tree.size, rootHash: tree.root() }, [signer])));
  files.set('log/keys.json', Buffer.from(JSON.stringify({ keys: [{ vkey: formatVerifierKey(signer) }] })));
  const manifest = {
    org: 'acme',
    subject: { kind: 'trail', flow: 'f', trail: 't' } as Record<string, string>,
    checkpoint: { size: tree.size, root_hash: tree.root().toString('base64') },
    records: manifestRecords,
    missing_records: [],
    missing_evidence: [],
    files: Object.fromEntries([...files].map(([name, bytes]) => [name, sha(bytes)])),
  };
  files.set('manifest.json', Buffer.from(JSON.stringify(manifest)));
  if (evaluation?.artifactFingerprint) {
    manifest.subject = { kind: 'artifact', flow: 'f', fingerprint: evaluation.artifactFingerprint };
    files.set('manifest.json', Buffer.from(JSON.stringify(manifest)));
    setFile(files, 'artifact.json', canonicalJson({ id: 'art1', trail_name: 't', fingerprint: evaluation.artifactFingerprint }));
    dropAttestation(files, 'a2');
  }
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

  describe('signed decisions', () => {
    it('passes a package with a signed decision, with and without --replay, and with attestations of another trail it evaluated', async () => {
      const plain = await run(makePackage(undefined, undefined, {}));
      expect(plain.out).toMatch(/0 failed \(package verified\)/);
      expect(plain.code).toBe(0);
      const replayed = await run(makePackage(undefined, undefined, {}), ['--replay']);
      expect(replayed.out).toMatch(/0 failed \(package verified\)/);
      expect(replayed.out).toMatch(/replayed/);
      const denied = await run(makePackage(undefined, undefined, { policyAllow: false }), ['--replay']);
      expect(denied.out).toMatch(/0 failed \(package verified\)/);
      // b1 belongs to trail u: its own package holds it, this one need not.
      const twoTrails = await run(makePackage(undefined, undefined, { otherTrail: true }));
      expect(twoTrails.out).toMatch(/0 failed \(package verified\)/);
      expect(twoTrails.code).toBe(0);
    });

    it('reports a signed verificationResult that is not the outcome the evaluation records', async () => {
      const result = await run(makePackage(undefined, undefined, { recordedAllow: true, signedAllow: false }));
      expect(result.code).toBe(1);
      expect(result.out).toContain('FAIL evaluation e1: signed verificationResult FAILED is not the outcome evaluations/e1.json records (status completed, allow: true)');
    });

    it("reports an input attestation of the package's trail that the package leaves out", async () => {
      const result = await run(makePackage(undefined, undefined, { extraAttestations: ['a3'] }));
      expect(result.code).toBe(1);
      expect(result.out).toContain('FAIL evaluation e1: input attestation a3 is not in the package');
      expect(result.out).toMatch(/summary: \d+ checks passed, 1 failed/);
    });

    it("in an artifact's package, requires the artifact's input attestations only", async () => {
      const fingerprint = 'c'.repeat(64);
      const ok = await run(makePackage(undefined, undefined, { artifactFingerprint: fingerprint }));
      expect(ok.out).toMatch(/0 failed \(package verified\)/);
      expect(ok.code).toBe(0);
      const left = await run(makePackage((files) => dropAttestation(files, 'a1'), undefined, { artifactFingerprint: fingerprint }));
      expect(left.code).toBe(1);
      expect(left.out).toContain('FAIL evaluation e1: input attestation a1 is not in the package');
      expect(left.out).not.toContain('input attestation a2');
      // In the trail's package, the trail-level one is required too.
      const trail = await run(makePackage((files) => dropAttestation(files, 'a2'), undefined, {}));
      expect(trail.out).toContain('FAIL evaluation e1: input attestation a2 is not in the package');
    });

    it('reports an input attestation whose packaged record is not the one listed', async () => {
      const result = await run(makePackage(undefined, undefined, { listedDigest: { a2: '0'.repeat(64) } }));
      expect(result.code).toBe(1);
      expect(result.out).toContain('FAIL evaluation e1: input attestation a2 differs from the one it evaluated');
    });

    it('reports, with --replay, a replayed outcome that is not the signed verificationResult', async () => {
      // The policy denies, the record says so (its result digest is reproduced), but the statement was signed PASSED.
      const pkg = makePackage(undefined, undefined, { policyAllow: false, recordedAllow: false, signedAllow: true });
      const replayed = await run(pkg, ['--replay']);
      expect(replayed.code).toBe(1);
      expect(replayed.out).toContain('FAIL evaluation e1: replay: the replayed outcome (allow: false) is not the signed verificationResult PASSED');
      expect(replayed.out).not.toContain("replay: the result's digest");
      // The comparison itself: digest and outcome, one answer each.
      const evaluation = { verification: { result_digest: `sha256:${sha('{"allow":true}')}` } };
      expect(compareReplay({ allow: true }, { evaluation, signedResult: 'PASSED' })).toEqual([null, null]);
      expect(compareReplay({ allow: true }, { evaluation, signedResult: 'FAILED' })).toEqual([null, 'the replayed outcome (allow: true) is not the signed verificationResult FAILED']);
      expect(compareReplay({ allow: 'yes' }, { evaluation, signedResult: 'PASSED' })[1]).toBe('the replayed outcome (allow: false) is not the signed verificationResult PASSED');
    });

    it("reports statement fields that do not match the package: resourceUri, policy uri, verifiedLevels, timeVerified, verifier, subject names", async () => {
      const result = await run(
        makePackage(undefined, undefined, {
          editStatement: (s) => {
            s.predicate.resourceUri = 'https://veritrail.example/api/v2/evaluations/acme/e2';
            s.predicate.verifiedLevels = ['VERITRAIL_CONTROL_c1'];
            s.predicate.timeVerified = '2023-11-14T22:13:21.123456Z';
            s.predicate.verifier.id = 'not a url';
          },
        }),
      );
      expect(result.code).toBe(1);
      expect(result.out).toContain('evaluation e1: signed resourceUri "https://veritrail.example/api/v2/evaluations/acme/e2" is not the URL of evaluation e1 of acme');
      expect(result.out).toContain('evaluation e1: signed policy uri "https://veritrail.example/api/v2/evaluations/acme/e1#policy" is not its resourceUri with #policy');
      expect(result.out).toContain('evaluation e1: signed verifiedLevels ["VERITRAIL_CONTROL_c1"] are not []');
      expect(result.out).toContain('evaluation e1: signed timeVerified 2023-11-14T22:13:21.123456Z is not the instant evaluations/e1.json records (1700000000.123456)');
      expect(result.out).toContain('evaluation e1: signed verifier {"id":"not a url"');
      const badTime = await run(makePackage(undefined, undefined, { editStatement: (s) => void (s.predicate.timeVerified = '2023-11-31T00:00:00Z') }));
      expect(badTime.out).toContain('evaluation e1: signed timeVerified "2023-11-31T00:00:00Z" is not an RFC 3339 date-time');
      const otherName = await run(makePackage(undefined, undefined, { editStatement: (s) => void (s.subject[0].name = 'acme/f/v@1') }));
      expect(otherName.out).toContain('evaluation e1: signed subjects acme/f/v@1 are not the trails evaluations/e1.json records (acme/f/t@1)');
      expect(otherName.out).toContain('evaluation e1: the packaged input is not the one its signed statement names');
      expect(otherName.out).toContain('evaluation e1: its signed subjects do not name trail f/t, whose package holds it');
    });
  });

  it('reports an inclusion proof whose audit_path is not an array of strings (no crash)', async () => {
    for (const auditPath of ['AAAA', [1, 2], null]) {
      const result = await run(
        makePackage((files) => {
          const proof = JSON.parse(files.get('log/proofs/1.json')!.toString());
          setFile(files, 'log/proofs/1.json', JSON.stringify({ ...proof, audit_path: auditPath }));
        }),
      );
      expect(result.code).toBe(1);
      expect(result.out).toContain('FAIL log/proofs/1.json: not an inclusion proof');
    }
  });

  it('reports a malformed key in the package\'s keys.json with --trust-package-keys (no crash)', async () => {
    const pkg = makePackage((files) => {
      const keys = JSON.parse(files.get('log/keys.json')!.toString());
      setFile(files, 'log/keys.json', JSON.stringify({ keys: [{ vkey: 'log.example+00000000+not-a-key' }, ...keys.keys] }));
    });
    const result = await run(pkg, ['--trust-package-keys']);
    expect(result.code).toBe(1);
    expect(result.out).toContain('FAIL log/keys.json: key 0 ("log.example+00000000+not-a-key") is not a verifier key');
    // The well-formed key still verified the checkpoint: that is the only failure.
    expect(result.out).toMatch(/summary: \d+ checks passed, 1 failed/);
    const noVkey = await run(makePackage((files) => setFile(files, 'log/keys.json', JSON.stringify({ keys: [{}] }))), ['--trust-package-keys']);
    expect(noVkey.code).toBe(1);
    expect(noVkey.out).toContain('FAIL log/keys.json: key 0 (no vkey) is not a verifier key');
  });

  it('is a usage error without a file or a key', async () => {
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l), env: {} };
    expect(await runVerifyCli(['package'], io)).toBe(2);
    expect(await runVerifyCli(['package', join(dir, 'x.tar.gz')], io)).toBe(2);
  });
});
