import { readFileSync } from 'node:fs';
import { readVerifierKey, TrustedNoteKey } from './formats';
import { verifyLog } from './verify-log';
import { verifyPackage } from './verify-package';
import { replayEvaluation } from './replay';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
  fetchFn?: typeof fetch;
}

const USAGE = [
  'usage:',
  '  verify package <file.tar.gz> --key <vkey or keys.json> [--key ...] [--trust-package-keys] [--replay]',
  '',
  'Checks an audit package offline: the checkpoint\'s signature (with a key you supply; the package\'s own',
  'log/keys.json only with --trust-package-keys, and the report says so), each record against its leaf, each',
  'leaf\'s inclusion proof, each evidence file, each signed decision (signature and statement against the packaged',
  'evaluation, input, bundle and attestations); --replay re-runs each evaluation with the packaged bundle and input',
  'and compares it with the recorded result and the signed verdict. One line per failed check, then a summary;',
  'exit 0 only if every check passed.',
  '',
  '  verify log --url <base URL> --org <org> --key <vkey or keys.json> [--key ...] [--state <file>] [--origin <origin>]',
  '             [--api-token <token>]   (or VERITRAIL_API_TOKEN)',
  '',
  'Fetches the org\'s latest signed log checkpoint, verifies its signature with the key(s) given, proves it',
  'consistent with the checkpoint saved in the state file (default ./veritrail-log-<org>.json) and saves it.',
  'Exit 0: verified; 1: a check failed (bad signature, rewritten history); 2: usage or network error.',
].join('\n');

/** A --key value: a vkey string, or a file holding one vkey per line or the service's keys.json answer. */
function loadKeys(value: string): TrustedNoteKey[] {
  if (!value.includes('+')) {
    const text = readFileSync(value, 'utf8');
    if (text.trimStart().startsWith('{')) {
      const json = JSON.parse(text) as { keys?: Array<{ vkey?: string }> };
      return (json.keys ?? []).map((k) => readVerifierKey(String(k.vkey)));
    }
    return text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')).map(readVerifierKey);
  }
  return [readVerifierKey(value)];
}

function parseFlags(args: string[]): Map<string, string[]> {
  const flags = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    const value = eq > 0 ? a.slice(eq + 1) : args[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return flags;
}

export async function runVerifyCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'package') return runVerifyPackage(rest, io);
  if (command !== 'log') {
    io.err(USAGE);
    return 2;
  }
  let flags: Map<string, string[]>;
  let keys: TrustedNoteKey[];
  try {
    flags = parseFlags(rest);
    for (const name of flags.keys()) {
      if (!['url', 'org', 'key', 'state', 'origin', 'api-token'].includes(name)) throw new Error(`unknown option --${name}`);
    }
    for (const required of ['url', 'org', 'key']) if (!flags.has(required)) throw new Error(`--${required} is required`);
    keys = flags.get('key')!.flatMap(loadKeys);
    if (keys.length === 0) throw new Error('no verifier key given');
  } catch (e) {
    io.err(`error: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const one = (name: string) => flags.get(name)?.at(-1);
  const org = one('org')!;
  const result = await verifyLog({
    url: one('url')!,
    org,
    keys,
    statePath: one('state') ?? `veritrail-log-${org}.json`,
    origin: one('origin'),
    apiToken: one('api-token') ?? io.env.VERITRAIL_API_TOKEN,
    fetchFn: io.fetchFn,
  });
  for (const line of result.lines) (result.code === 0 ? io.out : io.err)(line);
  return result.code;
}

async function runVerifyPackage(args: string[], io: CliIo): Promise<number> {
  let file: string;
  let keys: TrustedNoteKey[];
  let trustPackageKeys = false;
  let replay = false;
  try {
    const rest = [...args];
    if (!rest[0] || rest[0].startsWith('--')) throw new Error('the package file is required: verify package <file.tar.gz> --key ...');
    file = rest.shift()!;
    const i = rest.indexOf('--trust-package-keys');
    if (i >= 0) {
      trustPackageKeys = true;
      rest.splice(i, 1);
    }
    const j = rest.indexOf('--replay');
    if (j >= 0) {
      replay = true;
      rest.splice(j, 1);
    }
    const flags = parseFlags(rest);
    for (const name of flags.keys()) if (name !== 'key') throw new Error(`unknown option --${name}`);
    keys = (flags.get('key') ?? []).flatMap(loadKeys);
    if (keys.length === 0 && !trustPackageKeys) throw new Error('--key is required (or --trust-package-keys)');
  } catch (e) {
    io.err(`error: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const result = await verifyPackage({ file, keys, trustPackageKeys, replay: replay ? replayEvaluation : undefined });
  for (const line of result.lines) (result.code === 0 ? io.out : io.err)(line);
  return result.code;
}
