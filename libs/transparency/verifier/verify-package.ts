import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar-stream';
import type { ReplayMaterial } from './replay';
import { jcsCanonicalize, merkleLeafHash, merkleVerifyInclusion, openDsseEnvelope, openSignedCheckpoint, readVerifierKey, TrustedNoteKey } from './formats';

/**
 * `verify package`: checks an audit package offline. Every check that fails is one line; nothing here trusts
 * the package's own claims except where a signature or a hash ties them to the checkpoint.
 */

/** Files kept in memory to be read (JSON, notes); evidence and other large files are only hashed, as they stream. */
const KEEP_LIMIT = 16 * 1024 * 1024;

interface PackageFile {
  sha256: string;
  size: number;
  text?: string;
}

export interface PackageResult {
  code: number;
  lines: string[];
  failures: string[];
  checks: number;
}

async function readPackage(file: string): Promise<Map<string, PackageFile>> {
  const files = new Map<string, PackageFile>();
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const hash = createHash('sha256');
    const keep = !header.name.startsWith('evidence/') && (header.size ?? 0) <= KEEP_LIMIT;
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      size += chunk.length;
      if (keep) chunks.push(chunk);
    });
    stream.on('end', () => {
      files.set(header.name, { sha256: hash.digest('hex'), size, text: keep ? Buffer.concat(chunks).toString('utf8') : undefined });
      next();
    });
    stream.on('error', next);
  });
  await pipeline(createReadStream(file), createGunzip(), extract);
  return files;
}

export interface VerifyPackageOptions {
  file: string;
  keys: TrustedNoteKey[];
  /** Use the package's own log/keys.json (reported). */
  trustPackageKeys: boolean;
  /** Re-runs each evaluation with the packaged bundle and input (the Rego engine, given by the caller). */
  replay?: (m: ReplayMaterial) => string | null;
}

export async function verifyPackage(options: VerifyPackageOptions): Promise<PackageResult> {
  const failures: string[] = [];
  const notes: string[] = [];
  let checks = 0;
  const check = (ok: boolean, failure: string) => {
    checks++;
    if (!ok) failures.push(`FAIL ${failure}`);
    return ok;
  };
  let files: Map<string, PackageFile>;
  try {
    files = await readPackage(options.file);
  } catch (e) {
    return { code: 2, lines: [`error: cannot read ${options.file}: ${(e as Error).message}`], failures: [], checks: 0 };
  }
  const text = (name: string) => files.get(name)?.text;
  const json = <T>(name: string): T | undefined => {
    const t = text(name);
    if (t === undefined) return undefined;
    try {
      return JSON.parse(t) as T;
    } catch {
      check(false, `${name}: not JSON`);
      return undefined;
    }
  };

  const manifest = json<{
    org: string;
    subject: Record<string, string>;
    checkpoint: { size: number; root_hash: string };
    records: Array<{ kind: string; id: string; file: string; index: number | null }>;
    missing_records: Array<{ kind: string; id: string; index: number }>;
    missing_evidence: Array<{ attestation_id: string; sha256: string; reason: string }>;
    files: Record<string, string>;
  }>('manifest.json');
  if (!manifest) return { code: 1, lines: ['FAIL manifest.json is missing or unreadable', 'summary: 0 checks passed, 1 failed'], failures: ['FAIL manifest.json'], checks: 1 };

  // 1. Every file against the manifest, and nothing unlisted.
  for (const [name, sha] of Object.entries(manifest.files ?? {})) {
    const f = files.get(name);
    if (check(f !== undefined, `${name}: listed in the manifest but missing from the package`)) check(f!.sha256 === sha, `${name}: SHA-256 differs from the manifest`);
  }
  for (const name of files.keys()) if (name !== 'manifest.json') check(name in (manifest.files ?? {}), `${name}: in the package but not in the manifest`);

  // 2. The checkpoint's signature, with a key the user supplied (or, only when asked, the package's own).
  let keys = options.keys;
  if (options.trustPackageKeys) {
    const packaged = json<{ keys: Array<{ vkey: string }> }>('log/keys.json');
    keys = [...keys, ...(packaged?.keys ?? []).map((k) => readVerifierKey(k.vkey))];
    notes.push('note: the package\'s own log/keys.json was trusted (--trust-package-keys): the signatures prove consistency with those keys only');
  }
  let root: Buffer | null = null;
  let size = -1;
  const note = text('log/checkpoint');
  if (check(note !== undefined, 'log/checkpoint is missing')) {
    try {
      const cp = openSignedCheckpoint(note!, keys, undefined);
      check(cp.origin.endsWith(`/${manifest.org}`), `log/checkpoint: origin ${cp.origin} is not the log of ${manifest.org}`);
      root = cp.rootHash;
      size = cp.size;
      check(cp.size === manifest.checkpoint?.size && cp.rootHash.toString('base64') === manifest.checkpoint?.root_hash, 'manifest.json: its checkpoint is not the signed one');
    } catch (e) {
      check(false, `log/checkpoint: signature not verified with the given key(s): ${(e as Error).message}`);
    }
  }

  // 3. Each record against its leaf, each leaf against the checkpoint.
  const recordSha = new Map<string, string>();
  for (const r of manifest.records ?? []) {
    const raw = text(r.file);
    if (!check(raw !== undefined, `${r.kind} ${r.id}: record file ${r.file} is missing`)) continue;
    let sha: string;
    try {
      sha = r.kind === 'evaluation' ? sha256Hex(raw!) : sha256Hex(jcsCanonicalize(JSON.parse(raw!)));
    } catch {
      check(false, `${r.kind} ${r.id}: record is not JSON`);
      continue;
    }
    recordSha.set(`${r.kind}/${r.id}`, sha);
    if (!check(r.index !== null, `${r.kind} ${r.id}: not covered by the package's checkpoint (no log entry)`)) continue;
    const leafFile = json<{ index: number; leaf: string; leaf_hash: string }>(`log/leaves/${r.index}.json`);
    const proof = json<{ index: number; tree_size: number; leaf_hash: string; audit_path: string[] }>(`log/proofs/${r.index}.json`);
    if (!check(leafFile !== undefined && proof !== undefined, `${r.kind} ${r.id}: leaf or proof ${r.index} is missing`)) continue;
    let leaf: Record<string, unknown>;
    try {
      leaf = JSON.parse(leafFile!.leaf);
    } catch {
      check(false, `leaf ${r.index}: not JSON`);
      continue;
    }
    check(leaf.kind === r.kind && leaf.id === r.id && leaf.org === manifest.org, `leaf ${r.index}: names ${String(leaf.kind)} ${String(leaf.id)}, not ${r.kind} ${r.id}`);
    check(leaf.record_sha256 === sha, `${r.kind} ${r.id}: record changed since it was logged (SHA-256 ${sha} is not the leaf's ${String(leaf.record_sha256)})`);
    if (r.kind === 'trail' || r.kind === 'artifact') {
      // Logged over a trail's moment: the leaf names that moment, of this package's flow.
      const moment = json<{ moment_number?: number }>(r.file);
      check(
        leaf.moment === moment?.moment_number && leaf.flow === manifest.subject?.flow,
        `${r.kind} ${r.id}: leaf ${r.index} names moment ${String(leaf.moment)} of flow ${String(leaf.flow)}, not the packaged moment ${String(moment?.moment_number)} of ${String(manifest.subject?.flow)}`,
      );
    }
    const lh = merkleLeafHash(Buffer.from(leafFile!.leaf, 'utf8'));
    check(lh.toString('base64') === leafFile!.leaf_hash, `leaf ${r.index}: leaf_hash is not SHA-256(0x00 || leaf)`);
    if (root) {
      const ok = proof!.tree_size === size && proof!.index === r.index && merkleVerifyInclusion(r.index!, size, lh, proof!.audit_path.map((p) => Buffer.from(p, 'base64')), root);
      check(ok, `${r.kind} ${r.id}: leaf ${r.index} is not included in the checkpoint (inclusion proof fails)`);
    }
  }
  for (const m of manifest.missing_records ?? []) check(false, `${m.kind} ${m.id}: logged at index ${m.index} but missing from the service (deleted?)`);
  // Logged entries of this trail the manifest does not account for.
  const accounted = new Set([...(manifest.records ?? []).map((r) => r.index), ...(manifest.missing_records ?? []).map((r) => r.index)]);
  for (const name of files.keys()) {
    const m = /^log\/leaves\/(\d+)\.json$/.exec(name);
    if (m) check(accounted.has(Number(m[1])), `leaf ${m[1]}: in the package but no record accounts for it`);
  }

  // 4. Each attachment against its attestation.
  for (const m of manifest.missing_evidence ?? []) check(false, `attestation ${m.attestation_id}: evidence ${m.sha256} could not be packaged (${m.reason})`);
  for (const r of manifest.records ?? []) {
    if (r.kind !== 'attestation') continue;
    const a = json<{ evidence?: { sha256: string } | null }>(r.file);
    const want = a?.evidence?.sha256;
    if (!want || (manifest.missing_evidence ?? []).some((m) => m.attestation_id === r.id)) continue;
    const f = files.get(`evidence/${want}`);
    if (check(f !== undefined, `attestation ${r.id}: evidence/${want} is missing`)) check(f!.sha256 === want, `attestation ${r.id}: evidence/${want} does not have that SHA-256 (${f!.sha256})`);
  }

  // 5. Each signed decision: signature, and its statement against the packaged files.
  for (const r of manifest.records ?? []) {
    if (r.kind !== 'evaluation') continue;
    const envelope = json<unknown>(r.file);
    if (!envelope) continue;
    let statement: any;
    try {
      const opened = openDsseEnvelope(envelope, keys);
      statement = JSON.parse(opened.payload.toString('utf8'));
      checks++;
    } catch (e) {
      check(false, `evaluation ${r.id}: envelope signature not verified: ${(e as Error).message}`);
      continue;
    }
    check(statement._type === 'https://in-toto.io/Statement/v1' && statement.predicateType === 'https://slsa.dev/verification_summary/v1', `evaluation ${r.id}: not an in-toto SLSA VSA statement`);
    const evaluation = json<any>(`evaluations/${r.id}.json`);
    const policyHex = String(statement.predicate?.policy?.digest?.sha256 ?? '');
    const bundle: Record<string, string> = {};
    for (const name of files.keys()) if (name.startsWith(`policies/${policyHex}/`)) bundle[name.slice(`policies/${policyHex}/`.length)] = text(name) ?? '';
    const digests: Record<string, string> = {};
    for (const path of Object.keys(bundle).sort()) digests[path] = sha256Hex(bundle[path]);
    check(Object.keys(bundle).length > 0 && sha256Hex(jcsCanonicalize(digests)) === policyHex, `evaluation ${r.id}: policy bundle policies/${policyHex}/ is missing or does not have the signed digest`);
    if (evaluation) check(`sha256:${policyHex}` === evaluation.verification?.policy_digest, `evaluation ${r.id}: evaluations/${r.id}.json names another policy than its signed statement`);
    for (const input of statement.predicate?.inputAttestations ?? []) {
      const id = new URL(input.uri).searchParams.get('attestation_id');
      const sha = recordSha.get(`attestation/${id}`);
      if (sha !== undefined) check(sha === input.digest?.sha256, `evaluation ${r.id}: input attestation ${id} differs from the one it evaluated`);
      else if (id && (manifest.records ?? []).every((x) => x.id !== id)) {
        // Attestations of other trails are not in this package; one of this trail must be.
        const ofThisTrail = (manifest.missing_records ?? []).some((m) => m.id === id);
        check(!ofThisTrail, `evaluation ${r.id}: input attestation ${id} is missing from the package`);
      }
    }
    // The packaged input is the one the statement's subjects name (each trail element's canonical SHA-256).
    const replayText = text(`evaluations/${r.id}.input.json`);
    if (check(replayText !== undefined, `evaluation ${r.id}: evaluations/${r.id}.input.json is missing`)) {
      try {
        const elements: unknown[] = JSON.parse(replayText!).input?.trails ?? [];
        const trailSubjects = (statement.subject ?? []).filter((s: { name: string }) => /@\d+$/.test(s.name));
        const digests = elements.map((e) => sha256Hex(jcsCanonicalize(e)));
        check(
          trailSubjects.length === digests.length && trailSubjects.every((s: { digest: { sha256: string } }, i: number) => s.digest?.sha256 === digests[i]),
          `evaluation ${r.id}: the packaged input is not the one its signed statement names`,
        );
      } catch {
        check(false, `evaluation ${r.id}: evaluations/${r.id}.input.json is not JSON`);
      }
      if (options.replay && evaluation) {
        const problem = options.replay({ bundle, evaluation, replayText: replayText! });
        check(problem === null, `evaluation ${r.id}: replay: ${problem}`);
      }
    }
  }

  if (options.replay) notes.push('note: every evaluation was replayed (--replay) with the packaged bundle and input');
  const lines = [...failures, ...notes, `summary: ${checks - failures.length} checks passed, ${failures.length} failed${failures.length ? '' : ' (package verified)'}`];
  return { code: failures.length ? 1 : 0, lines, failures, checks };
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
}
