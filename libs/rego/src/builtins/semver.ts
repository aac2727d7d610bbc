/** semver.is_valid / semver.compare (Semantic Versioning 2.0.0; build metadata ignored in precedence). */
import type { BuiltinImpl } from './contract';
import { BuiltinError } from './errors';
import { str } from './operands';

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

interface Version {
  nums: [bigint, bigint, bigint];
  pre: string[];
}

export function parseSemver(s: string): Version | undefined {
  const m = SEMVER.exec(s);
  if (!m) return undefined;
  return { nums: [BigInt(m[1]), BigInt(m[2]), BigInt(m[3])], pre: m[4] ? m[4].split('.') : [] };
}

function cmpIdent(a: string, b: string): number {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (an) return -1;
  if (bn) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareSemver(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) {
    if (a.nums[i] !== b.nums[i]) return a.nums[i] < b.nums[i] ? -1 : 1;
  }
  if (a.pre.length === 0 || b.pre.length === 0) {
    if (a.pre.length === b.pre.length) return 0;
    return a.pre.length === 0 ? 1 : -1;
  }
  const n = Math.min(a.pre.length, b.pre.length);
  for (let i = 0; i < n; i++) {
    const c = cmpIdent(a.pre[i], b.pre[i]);
    if (c !== 0) return c;
  }
  return a.pre.length === b.pre.length ? 0 : a.pre.length < b.pre.length ? -1 : 1;
}

export const SEMVER_BUILTINS: Record<string, BuiltinImpl> = {
  'semver.is_valid': ([v]) => typeof v === 'string' && parseSemver(v) !== undefined,
  'semver.compare': (args) => {
    const a = str(args, 0);
    const b = str(args, 1);
    const va = parseSemver(a);
    if (!va) throw new BuiltinError(`operand 1: string ${a} is not a valid SemVer`);
    const vb = parseSemver(b);
    if (!vb) throw new BuiltinError(`operand 2: string ${b} is not a valid SemVer`);
    return compareSemver(va, vb);
  },
};
