import { createHash } from 'node:crypto';
import { compileBundle, isRegoError } from '../../rego/src/index';

/**
 * `verify package --replay`: re-runs an evaluation with the packaged bundle and input on the project's Rego
 * engine (the one piece of the service the verifier shares) and compares the result: its digest with the
 * recorded one (evaluations/<id>.json, neither signed nor logged), and its allow/deny outcome with the signed
 * statement's verificationResult (PASSED iff the policy allowed, as the service signs it).
 */

/** Canonical JSON as evaluations digest it: keys sorted by UTF-16 code units, no white space, big integers exact. */
function canonical(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v === undefined ? null : v)).join(',')}]`;
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
}

const digest = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

export interface ReplayMaterial {
  /** The bundle's files by path. */
  bundle: Record<string, string>;
  /** evaluations/<id>.json */
  evaluation: { verification?: { input_digest?: string | null; result_digest?: string | null } };
  /** evaluations/<id>.input.json, as text */
  replayText: string;
  /** The signed statement's predicate.verificationResult (`PASSED` or `FAILED`), as signed. */
  signedResult: unknown;
}

/** The policy's value on replay, or why there is none (the input is not the recorded one, the policy did not run). */
export function runReplay(m: Pick<ReplayMaterial, 'bundle' | 'evaluation' | 'replayText'>): { value: unknown } | { problem: string } {
  let replay: { input: unknown; params: Record<string, unknown> | null; now_ns: string };
  try {
    replay = JSON.parse(m.replayText);
  } catch {
    return { problem: 'the input file is not JSON' };
  }
  const inputDigest = digest(canonical(replay.input));
  if (inputDigest !== m.evaluation.verification?.input_digest) return { problem: `the packaged input's digest ${inputDigest} is not the recorded ${m.evaluation.verification?.input_digest}` };
  if (Object.keys(m.bundle).some((p) => p.endsWith('.wasm'))) return { problem: 'a bundle compiled to WebAssembly cannot be replayed by this verifier' };
  try {
    const rego: Record<string, string> = {};
    for (const [path, text] of Object.entries(m.bundle)) if (path.endsWith('.rego') || path === '.manifest' || /(^|\/)data\.(json|ya?ml)$/.test(path)) rego[path] = text;
    const bundle = compileBundle(rego);
    const data = replay.params === null ? undefined : { ...(bundle.data ?? {}), params: replay.params };
    const { value } = bundle.evalValue('data.policy', { input: replay.input, data, nowNs: BigInt(replay.now_ns) });
    if (value === undefined) return { problem: 'data.policy is undefined on replay' };
    return { value };
  } catch (e) {
    return { problem: `the policy did not run: ${isRegoError(e) ? (e as Error).message : String(e)}` };
  }
}

/**
 * Compares a replayed value with what the package says of it: one answer per comparison, null when it agrees.
 * - its digest with the recorded `result_digest`;
 * - its outcome (allowed iff `allow` is true, as the service decides before signing) with the signed
 *   verificationResult: `PASSED` iff allowed.
 */
export function compareReplay(value: unknown, m: Pick<ReplayMaterial, 'evaluation' | 'signedResult'>): Array<string | null> {
  const got = digest(canonical(value));
  const recorded = m.evaluation.verification?.result_digest;
  const allowed = (value as { allow?: unknown } | null)?.allow === true;
  const signedOk = (m.signedResult === 'PASSED' || m.signedResult === 'FAILED') && (m.signedResult === 'PASSED') === allowed;
  return [
    got === recorded ? null : `the result's digest ${got} is not the recorded ${recorded}`,
    signedOk ? null : `the replayed outcome (allow: ${allowed}) is not the signed verificationResult ${String(m.signedResult)}`,
  ];
}

/** Replays one evaluation: one answer per check made (null: it passed); a replay that cannot run is one problem. */
export function replayEvaluation(m: ReplayMaterial): Array<string | null> {
  const ran = runReplay(m);
  return 'problem' in ran ? [ran.problem] : compareReplay(ran.value, m);
}
