import { createHash } from 'node:crypto';
import { compileBundle, isRegoError } from '../../rego/src/index';

/**
 * `verify package --replay`: re-runs an evaluation with the packaged bundle and input on the project's Rego
 * engine (the one piece of the service the verifier shares) and compares the result's digest with the recorded
 * one. Answers null when it is reproduced, else what differs.
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
}

export function replayEvaluation(m: ReplayMaterial): string | null {
  let replay: { input: unknown; params: Record<string, unknown> | null; now_ns: string };
  try {
    replay = JSON.parse(m.replayText);
  } catch {
    return 'the input file is not JSON';
  }
  const inputDigest = digest(canonical(replay.input));
  if (inputDigest !== m.evaluation.verification?.input_digest) return `the packaged input's digest ${inputDigest} is not the recorded ${m.evaluation.verification?.input_digest}`;
  if (Object.keys(m.bundle).some((p) => p.endsWith('.wasm'))) return 'a bundle compiled to WebAssembly cannot be replayed by this verifier';
  try {
    const rego: Record<string, string> = {};
    for (const [path, text] of Object.entries(m.bundle)) if (path.endsWith('.rego') || path === '.manifest' || /(^|\/)data\.(json|ya?ml)$/.test(path)) rego[path] = text;
    const bundle = compileBundle(rego);
    const data = replay.params === null ? undefined : { ...(bundle.data ?? {}), params: replay.params };
    const { value } = bundle.evalValue('data.policy', { input: replay.input, data, nowNs: BigInt(replay.now_ns) });
    if (value === undefined) return 'data.policy is undefined on replay';
    const got = digest(canonical(value));
    return got === m.evaluation.verification?.result_digest ? null : `the result's digest ${got} is not the recorded ${m.evaluation.verification?.result_digest}`;
  } catch (e) {
    return `the policy did not run: ${isRegoError(e) ? (e as Error).message : String(e)}`;
  }
}
