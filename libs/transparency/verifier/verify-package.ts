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
  /**
   * Re-runs each evaluation with the packaged bundle and input (the Rego engine, given by the caller): one answer
   * per check made, null when it passed.
   */
  replay?: (m: ReplayMaterial) => Array<string | null>;
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
    // Each key read on its own: a malformed one is a failed check naming the file, the others still count.
    const packaged = json<{ keys?: unknown }>('log/keys.json');
    if (check(text('log/keys.json') !== undefined, 'log/keys.json is missing (--trust-package-keys)') && packaged !== undefined) {
      const listed = packaged !== null && typeof packaged === 'object' ? packaged.keys : undefined;
      if (check(Array.isArray(listed), 'log/keys.json: not a list of keys ({"keys":[{"vkey":"..."}]})')) {
        for (const [i, k] of (listed as unknown[]).entries()) {
          const vkey = (k as { vkey?: unknown } | null)?.vkey;
          try {
            keys = [...keys, readVerifierKey(vkey as string)];
          } catch (e) {
            check(false, `log/keys.json: key ${i} (${JSON.stringify(vkey) ?? 'no vkey'}) is not a verifier key: ${(e as Error).message}`);
          }
        }
      }
    }
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
    if (typeof leafFile!.leaf !== 'string' || leaf === null || typeof leaf !== 'object' || Array.isArray(leaf)) {
      check(false, `log/leaves/${r.index}.json: not a log leaf (its "leaf" is not the text of a JSON object)`);
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
    if (!isInclusionProof(proof)) check(false, `log/proofs/${r.index}.json: not an inclusion proof (index, tree_size and an audit_path that is an array of base64 strings)`);
    else if (root) {
      const ok = proof.tree_size === size && proof.index === r.index && merkleVerifyInclusion(r.index!, size, lh, proof.audit_path.map((p) => Buffer.from(p, 'base64')), root);
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

  // 5. Each signed decision: signature, and every field of its statement the package lets one check, against the
  // packaged files (trust.md section 2).
  // The trail whose evaluations the package holds: the subject's own, or, for an artifact, the trail that reported it.
  const subjectFlow = manifest.subject?.flow;
  const subjectTrail = manifest.subject?.kind === 'artifact' ? json<{ trail_name?: unknown } | null>('artifact.json')?.trail_name : manifest.subject?.trail;
  for (const r of manifest.records ?? []) {
    if (r.kind !== 'evaluation') continue;
    const envelope = json<unknown>(r.file);
    if (!envelope) continue;
    let statement: any;
    try {
      const opened = openDsseEnvelope(envelope, keys);
      statement = JSON.parse(opened.payload.toString('utf8'));
      checks++;
      check(opened.payloadType === IN_TOTO_PAYLOAD_TYPE, `evaluation ${r.id}: envelope payloadType ${JSON.stringify(opened.payloadType)} is not ${IN_TOTO_PAYLOAD_TYPE}`);
    } catch (e) {
      check(false, `evaluation ${r.id}: envelope signature not verified: ${(e as Error).message}`);
      continue;
    }
    if (!check(isObject(statement), `evaluation ${r.id}: the signed payload is not a JSON object`)) continue;
    check(statement._type === 'https://in-toto.io/Statement/v1' && statement.predicateType === 'https://slsa.dev/verification_summary/v1', `evaluation ${r.id}: not an in-toto SLSA VSA statement`);
    const predicate: any = isObject(statement.predicate) ? statement.predicate : {};
    const evaluationFile = `evaluations/${r.id}.json`;
    const parsed = json<unknown>(evaluationFile);
    check(text(evaluationFile) !== undefined, `evaluation ${r.id}: ${evaluationFile} is missing`);
    const evaluation: any = isObject(parsed) ? parsed : undefined;
    if (parsed !== undefined && !evaluation) check(false, `evaluation ${r.id}: ${evaluationFile} is not an evaluation record`);
    if (evaluation) check(evaluation.id === r.id, `evaluation ${r.id}: ${evaluationFile} is the record of evaluation ${String(evaluation.id)}`);

    // The statement names this evaluation: resourceUri is its URL, the policy's uri that URL with #policy.
    const resourceUri = predicate.resourceUri;
    const at = typeof resourceUri === 'string' ? /^(https?:\/\/[^?#]+?)\/api\/v2\/evaluations\/([^/?#]+)\/([^/?#]+)$/.exec(resourceUri) : null;
    const base = at && decode(at[2]) === manifest.org && decode(at[3]) === r.id ? at[1] : undefined;
    check(base !== undefined, `evaluation ${r.id}: signed resourceUri ${JSON.stringify(resourceUri)} is not the URL of evaluation ${r.id} of ${manifest.org}`);
    check(typeof resourceUri === 'string' && predicate.policy?.uri === `${resourceUri}#policy`, `evaluation ${r.id}: signed policy uri ${JSON.stringify(predicate.policy?.uri)} is not its resourceUri with #policy`);

    // The verdict, the control and the instant, as evaluations/<id>.json records them.
    const verdict = predicate.verificationResult;
    if (check(verdict === 'PASSED' || verdict === 'FAILED', `evaluation ${r.id}: signed verificationResult ${JSON.stringify(verdict)} is neither PASSED nor FAILED`) && evaluation) {
      const allowed = evaluation.result?.allow === true;
      check(
        evaluation.status === 'completed' && (verdict === 'PASSED') === allowed,
        `evaluation ${r.id}: signed verificationResult ${verdict} is not the outcome ${evaluationFile} records (status ${String(evaluation.status)}, allow: ${allowed})`,
      );
    }
    if (evaluation) {
      const levels = evaluation.control === null || evaluation.control === undefined ? [] : [`VERITRAIL_CONTROL_${evaluation.control}`];
      check(
        JSON.stringify(predicate.verifiedLevels) === JSON.stringify(levels),
        `evaluation ${r.id}: signed verifiedLevels ${JSON.stringify(predicate.verifiedLevels)} are not ${JSON.stringify(levels)} (the control ${evaluationFile} records)`,
      );
    }
    const verifier = predicate.verifier;
    check(
      isHttpUrl(verifier?.id) && typeof verifier?.version?.veritrail === 'string' && typeof verifier?.version?.rego === 'string',
      `evaluation ${r.id}: signed verifier ${JSON.stringify(verifier)} is not {"id":"<the service's URL>","version":{"veritrail":"...","rego":"..."}}`,
    );
    const engineVersion = evaluation?.verification?.engine_version;
    if (typeof verifier?.version?.rego === 'string' && typeof engineVersion === 'string') {
      check(verifier.version.rego === engineVersion, `evaluation ${r.id}: signed rego version ${verifier.version.rego} is not the engine version ${evaluationFile} records (${engineVersion})`);
    }
    const timeVerified = predicate.timeVerified;
    const instant = rfc3339Instant(timeVerified);
    if (check(instant !== null, `evaluation ${r.id}: signed timeVerified ${JSON.stringify(timeVerified)} is not an RFC 3339 date-time`)) {
      const recordedAt = evaluation?.verification?.recorded_at;
      if (typeof recordedAt === 'string') {
        check(instant === decimalSecondsInstant(recordedAt), `evaluation ${r.id}: signed timeVerified ${timeVerified} is not the instant ${evaluationFile} records (${recordedAt})`);
      }
    }

    // The policy: the packaged bundle has the signed digest.
    const policyHex = String(predicate.policy?.digest?.sha256 ?? '');
    const bundle: Record<string, string> = {};
    for (const name of files.keys()) if (name.startsWith(`policies/${policyHex}/`)) bundle[name.slice(`policies/${policyHex}/`.length)] = text(name) ?? '';
    const digests: Record<string, string> = {};
    for (const path of Object.keys(bundle).sort()) digests[path] = sha256Hex(bundle[path]);
    check(Object.keys(bundle).length > 0 && sha256Hex(jcsCanonicalize(digests)) === policyHex, `evaluation ${r.id}: policy bundle policies/${policyHex}/ is missing or does not have the signed digest`);
    if (evaluation) check(`sha256:${policyHex}` === evaluation.verification?.policy_digest, `evaluation ${r.id}: ${evaluationFile} names another policy than its signed statement`);

    // The subjects: each evaluated trail at its moment, in order, named as evaluations/<id>.json records them.
    const subjects: any[] = Array.isArray(statement.subject) ? statement.subject : [];
    const trailSubjects = subjects.filter((s) => typeof s?.name === 'string' && /@\d+$/.test(s.name));
    for (const s of subjects) {
      if (trailSubjects.includes(s)) continue;
      // A decision's artifact: its name and its SHA-256 fingerprint.
      check(typeof s?.name === 'string' && s.name !== '' && HEX64.test(String(s?.digest?.sha256)), `evaluation ${r.id}: signed subject ${JSON.stringify(s)} is neither a trail at a moment nor an artifact`);
    }
    const nameOf = (t: any) => `${manifest.org}/${String(t?.flow_name)}/${String(t?.trail_name)}@${String(t?.moment_number)}`;
    const refs = evaluation?.verification?.trails;
    if (Array.isArray(refs)) {
      const want = refs.map(nameOf);
      const got = trailSubjects.map((s) => s.name as string);
      check(sameList(want, got), `evaluation ${r.id}: signed subjects ${got.join(', ') || '(none)'} are not the trails ${evaluationFile} records (${want.join(', ') || 'none'})`);
    }
    if (typeof subjectFlow === 'string' && typeof subjectTrail === 'string') {
      const prefix = `${manifest.org}/${subjectFlow}/${subjectTrail}@`;
      check(
        trailSubjects.some((s) => s.name.startsWith(prefix) && /^\d+$/.test(s.name.slice(prefix.length))),
        `evaluation ${r.id}: its signed subjects do not name trail ${subjectFlow}/${subjectTrail}, whose package holds it`,
      );
    }

    // The packaged input is the one the statement's subjects name (each trail element's canonical SHA-256 and names).
    const replayText = text(`evaluations/${r.id}.input.json`);
    /** The packaged input's trail elements, once tied to the signed subjects (null: not tied). */
    let elements: unknown[] | null = null;
    if (check(replayText !== undefined, `evaluation ${r.id}: evaluations/${r.id}.input.json is missing`)) {
      let got: unknown;
      try {
        got = JSON.parse(replayText!);
      } catch {
        check(false, `evaluation ${r.id}: evaluations/${r.id}.input.json is not JSON`);
      }
      if (got !== undefined) {
        const trails = (got as { input?: { trails?: unknown } } | null)?.input?.trails ?? [];
        const list: unknown[] = Array.isArray(trails) ? trails : [];
        let hashes: string[] | null = null;
        try {
          hashes = Array.isArray(trails) ? list.map((e) => sha256Hex(jcsCanonicalize(e))) : null;
        } catch {
          // Not canonicalizable (not I-JSON): it cannot be the input the subjects name.
        }
        const same = hashes !== null && trailSubjects.length === list.length && trailSubjects.every((s, i) => s.digest?.sha256 === hashes![i] && s.name === nameOf(list[i]));
        if (check(same, `evaluation ${r.id}: the packaged input is not the one its signed statement names`)) elements = list;
      }
      if (options.replay && evaluation) {
        for (const problem of options.replay({ bundle, evaluation, replayText: replayText!, signedResult: verdict })) check(problem === null, `evaluation ${r.id}: replay: ${problem}`);
      }
    }

    // Its input attestations: every attestation the input held, each in the package with the signed digest. One the
    // package leaves out fails, unless the signed input places it outside the package's subject (an attestation of
    // another trail the evaluation covered, or, in an artifact's package, one not of that artifact).
    const listed = predicate.inputAttestations;
    if (check(Array.isArray(listed), `evaluation ${r.id}: signed inputAttestations is not a list`)) {
      // null: the package's trail, or the input, is not known for sure; then every listed attestation must be here.
      const ofSubject = elements && typeof subjectTrail === 'string' ? subjectAttestationIds(elements, manifest.subject ?? {}, subjectTrail) : null;
      const ids: string[] = [];
      for (const input of listed as any[]) {
        const id = attestationIdOfUri(input?.uri, manifest.org, base);
        if (!check(id !== null, `evaluation ${r.id}: input attestation uri ${JSON.stringify(input?.uri)} is not the read URL of an attestation of ${manifest.org}`)) continue;
        ids.push(id!);
        const sha = recordSha.get(`attestation/${id}`);
        if (sha !== undefined) check(sha === input.digest?.sha256, `evaluation ${r.id}: input attestation ${id} differs from the one it evaluated`);
        else if (ofSubject === null || ofSubject.has(id!)) check(false, `evaluation ${r.id}: input attestation ${id} is not in the package`);
      }
      if (elements) {
        const held = [...attestationIdsIn(elements)].sort();
        check(sameList(held, [...ids].sort()), `evaluation ${r.id}: signed inputAttestations (${ids.length}) are not every attestation the packaged input holds (${held.length})`);
      }
    }
  }

  if (options.replay) notes.push('note: every evaluation was replayed (--replay) with the packaged bundle and input');
  const lines = [...failures, ...notes, `summary: ${checks - failures.length} checks passed, ${failures.length} failed${failures.length ? '' : ' (package verified)'}`];
  return { code: failures.length ? 1 : 0, lines, failures, checks };
}

const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
const HEX64 = /^[0-9a-f]{64}$/;

function isObject(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** A log proof file as the proof route answers it, its audit path an array of strings. */
function isInclusionProof(value: unknown): value is { index: number; tree_size: number; leaf_hash: string; audit_path: string[] } {
  const p = value as { index?: unknown; tree_size?: unknown; audit_path?: unknown } | null;
  return isObject(p) && Number.isSafeInteger(p.index) && Number.isSafeInteger(p.tree_size) && Array.isArray(p.audit_path) && p.audit_path.every((h) => typeof h === 'string');
}

/** An instant as `<Unix seconds>.<fraction without trailing zeros>`, from an RFC 3339 date-time; null when it is not one. */
function rfc3339Instant(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > days || hour > 23 || minute > 59 || second > 59) return null;
  if (m[8].length > 1 && (Number(m[8].slice(1, 3)) > 23 || Number(m[8].slice(4)) > 59)) return null;
  const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[8].toUpperCase()}`);
  if (Number.isNaN(ms)) return null;
  return `${ms / 1000}.${(m[7] ?? '').replace(/0+$/, '')}`;
}

/** The same form from decimal Unix seconds (how evaluations/<id>.json records its instant). */
function decimalSecondsInstant(value: string): string | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(value);
  return m ? `${BigInt(m[1])}.${(m[2] ?? '').replace(/0+$/, '')}` : null;
}

/** The attestation id of an input attestation's read URL (`<base>/api/v2/attestations/<org>?attestation_id=<id>`). */
function attestationIdOfUri(uri: unknown, org: string, base: string | undefined): string | null {
  if (typeof uri !== 'string') return null;
  const m = /^(https?:\/\/[^?#]+?)\/api\/v2\/attestations\/([^/?#]+)\?attestation_id=([^&#]+)$/.exec(uri);
  if (!m || (base !== undefined && m[1] !== base) || decode(m[2]) !== org) return null;
  return decode(m[3]);
}

/** Every attestation id an input element names (the service lists these, and only these, as input attestations). */
function attestationIdsIn(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const v of value) attestationIdsIn(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (k === 'attestation_id' && typeof v === 'string') into.add(v);
      else attestationIdsIn(v, into);
    }
  }
  return into;
}

/**
 * The input's attestations the package must hold: in a trail's package, all of that trail's element; in an
 * artifact's package, those of its trail's element under an entry (an attestation, or an artifact's status) that
 * names the artifact's fingerprint.
 */
function subjectAttestationIds(elements: unknown[], subject: Record<string, string>, trail: string): Set<string> {
  const out = new Set<string>();
  const fingerprint = subject.kind === 'artifact' ? subject.fingerprint : undefined;
  const walk = (value: unknown, inScope: boolean) => {
    if (Array.isArray(value)) for (const v of value) walk(v, inScope);
    else if (value !== null && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      const here = inScope || (fingerprint !== undefined && o.artifact_fingerprint === fingerprint);
      for (const [k, v] of Object.entries(o)) {
        if (k === 'attestation_id' && typeof v === 'string') {
          if (here) out.add(v);
        } else walk(v, here);
      }
    }
  };
  for (const e of elements) {
    const element = e as { flow_name?: unknown; trail_name?: unknown } | null;
    if (element?.flow_name === subject.flow && element?.trail_name === trail) walk(element, fingerprint === undefined);
  }
  return out;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
}
