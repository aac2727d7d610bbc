import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { merkleEmptyRoot, merkleVerifyConsistency, OpenedCheckpointNote, openSignedCheckpoint, TrustedNoteKey } from './formats';

/**
 * `verify log`: a monitor of one organization's evidence log. It fetches the latest signed checkpoint, verifies
 * its signature with keys the user supplies, proves it consistent with the checkpoint saved by the previous run,
 * and saves it. A log that shrank, signed two roots for one size, or whose new tree does not extend the saved one
 * is reported as a rewritten history, and the saved state is left as it was (it is the evidence).
 */

export interface MonitorState {
  url: string;
  org: string;
  origin: string;
  size: number;
  root_hash: string;
  /** The signed checkpoint exactly as served. */
  checkpoint: string;
  checked_at: string;
}

export interface VerifyLogOptions {
  url: string;
  org: string;
  keys: TrustedNoteKey[];
  statePath: string;
  /** When set, the checkpoint's origin line must be exactly this. */
  origin?: string;
  apiToken?: string;
  fetchFn?: typeof fetch;
  now?: () => Date;
}

export interface VerifyLogResult {
  /** 0: consistent and saved; 1: a check failed (signature, rewritten history); 2: could not check. */
  code: 0 | 1 | 2;
  lines: string[];
}

class CannotCheck extends Error {}

function b64(buf: Uint8Array): string {
  return Buffer.from(buf).toString('base64');
}

async function get(opts: VerifyLogOptions, path: string): Promise<string> {
  const url = `${opts.url.replace(/\/+$/, '')}/api/v2/log/${encodeURIComponent(opts.org)}${path}`;
  const headers: Record<string, string> = {};
  if (opts.apiToken) headers.authorization = `Bearer ${opts.apiToken}`;
  let res: Response;
  try {
    res = await (opts.fetchFn ?? fetch)(url, { headers });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new CannotCheck(`GET ${url}: ${(e as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`);
  }
  const body = await res.text();
  if (res.status !== 200) throw new CannotCheck(`GET ${url}: HTTP ${res.status} ${body.slice(0, 200)}`);
  return body;
}

function readState(path: string): MonitorState | null {
  if (!existsSync(path)) return null;
  let state: MonitorState;
  try {
    state = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new CannotCheck(`state file ${path} is not JSON: ${(e as Error).message}`);
  }
  if (typeof state?.checkpoint !== 'string' || !Number.isSafeInteger(state.size) || typeof state.root_hash !== 'string') {
    throw new CannotCheck(`state file ${path} is not a saved checkpoint`);
  }
  return state;
}

function writeState(path: string, state: MonitorState): void {
  // Write then rename, so an interrupted run never leaves half a state file.
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o644 });
  renameSync(tmp, path);
}

export async function verifyLog(opts: VerifyLogOptions): Promise<VerifyLogResult> {
  const lines: string[] = [];
  try {
    const saved = readState(opts.statePath);
    const text = await get(opts, '/checkpoint');
    let cp: OpenedCheckpointNote;
    try {
      cp = openSignedCheckpoint(text, opts.keys, opts.origin ?? saved?.origin);
    } catch (e) {
      return { code: 1, lines: [`FAIL checkpoint: ${(e as Error).message}`] };
    }
    if (!cp.origin.endsWith(`/${opts.org}`)) {
      return { code: 1, lines: [`FAIL checkpoint: origin ${JSON.stringify(cp.origin)} is not a log of org ${opts.org}`] };
    }
    const signedBy = cp.note.verified.map((s) => s.name).join(', ');
    const fresh: MonitorState = {
      url: opts.url,
      org: opts.org,
      origin: cp.origin,
      size: cp.size,
      root_hash: b64(cp.rootHash),
      checkpoint: text,
      checked_at: (opts.now ?? (() => new Date()))().toISOString(),
    };
    if (!saved) {
      writeState(opts.statePath, fresh);
      lines.push(`first checkpoint: size ${cp.size}, root ${fresh.root_hash}, signed by ${signedBy}; saved to ${opts.statePath}`);
      lines.push('OK: nothing to compare yet; later runs prove the log only grew from here');
      return { code: 0, lines };
    }
    const savedRoot = Buffer.from(saved.root_hash, 'base64');
    const rewritten = (why: string): VerifyLogResult => ({
      code: 1,
      lines: [
        `FAIL rewritten history: ${why}`,
        `  saved checkpoint (size ${saved.size}, ${saved.checked_at}):`,
        ...saved.checkpoint.trimEnd().split('\n').map((l) => `    ${l}`),
        `  served checkpoint (size ${cp.size}):`,
        ...text.trimEnd().split('\n').map((l) => `    ${l}`),
        `  the saved state in ${opts.statePath} is kept unchanged`,
      ],
    });
    if (cp.size < saved.size) return rewritten(`the log shrank from ${saved.size} to ${cp.size} entries`);
    if (cp.size === saved.size) {
      if (!cp.rootHash.equals(savedRoot)) return rewritten(`two different roots were signed for size ${cp.size}`);
      writeState(opts.statePath, { ...saved, checked_at: fresh.checked_at });
      return { code: 0, lines: [`OK: unchanged at size ${cp.size}, root ${fresh.root_hash}, signed by ${signedBy}`] };
    }
    if (saved.size === 0) {
      if (!savedRoot.equals(merkleEmptyRoot())) return rewritten('the saved empty checkpoint has a root other than SHA-256("")');
    } else {
      const body = await get(opts, `/proof/consistency?first=${saved.size}&second=${cp.size}`);
      let proof: Buffer[];
      try {
        const parsed = JSON.parse(body) as { first: number; second: number; consistency_path: string[] };
        if (parsed.first !== saved.size || parsed.second !== cp.size || !Array.isArray(parsed.consistency_path)) throw new Error('wrong sizes');
        proof = parsed.consistency_path.map((h) => Buffer.from(String(h), 'base64'));
      } catch (e) {
        throw new CannotCheck(`consistency proof answer is malformed: ${(e as Error).message}`);
      }
      if (!merkleVerifyConsistency(saved.size, cp.size, savedRoot, cp.rootHash, proof)) {
        return rewritten(`the tree of size ${cp.size} does not extend the saved tree of size ${saved.size} (consistency proof fails)`);
      }
    }
    writeState(opts.statePath, fresh);
    lines.push(`OK: size ${saved.size} -> ${cp.size} proved consistent, root ${fresh.root_hash}, signed by ${signedBy}; saved`);
    return { code: 0, lines };
  } catch (e) {
    if (e instanceof CannotCheck) return { code: 2, lines: [`ERROR ${e.message}`] };
    throw e;
  }
}
