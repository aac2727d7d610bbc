/** Arithmetic, rounding, ranges, bit operations and rand.intn. */
import { Value, RegoSet } from '../value';
import * as N from '../number';
import type { BuiltinImpl, BuiltinContext } from './contract';
import { BuiltinError, BuiltinLimitError, BuiltinTypeError } from './errors';
import { num, numeric, int, str, typeErr, oneOf } from './operands';

function setDiff(a: RegoSet, b: RegoSet): RegoSet {
  const out = new RegoSet();
  for (const [k, v] of a.map) if (!b.map.has(k)) out.map.set(k, v);
  return out;
}

function roundHalfAway(x: number): number {
  const r = Math.sign(x) * Math.round(Math.abs(x));
  return r === 0 ? 0 : r;
}

/**
 * A builtin runs synchronously, so neither the deadline nor the step budget can stop it: ranges are capped to
 * keep one call from exhausting memory. OPA has no cap (it computes the range or halts when cancelled), so the
 * cap is a protection: it halts the evaluation (policy_resource_limit), never makes the call undefined.
 */
export const MAX_RANGE = 10_000_000n;

function range(a: N.Num, b: N.Num, step: bigint): Value[] {
  const out: Value[] = [];
  const x = N.toBigInt(a);
  const y = N.toBigInt(b);
  const len = (x <= y ? y - x : x - y) / step + 1n;
  if (len > MAX_RANGE) throw new BuiltinLimitError(`range of ${len} numbers exceeds the limit of ${MAX_RANGE}`);
  if (x <= y) for (let i = x; i <= y; i += step) out.push(N.normalize(i));
  else for (let i = x; i >= y; i -= step) out.push(N.normalize(i));
  return out;
}

/** FNV-1a over the key, mixed with the evaluation seed: deterministic per (str, n) within an evaluation. */
function seededInt(ctx: BuiltinContext, key: string, n: bigint): bigint {
  let h = 0xcbf29ce484222325n;
  const seed = BigInt(ctx.rand.seed ?? 0);
  const data = `${seed}\u0000${key}`;
  for (let i = 0; i < data.length; i++) {
    h ^= BigInt(data.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  // xorshift-mix so that close keys spread out
  h ^= h >> 33n;
  h = (h * 0xff51afd7ed558ccdn) & 0xffffffffffffffffn;
  h ^= h >> 33n;
  return h % n;
}

function bitsArgs(args: Value[]): [bigint, bigint] {
  return [N.toBigInt(int(args, 0)), N.toBigInt(int(args, 1))];
}

export const ARITHMETIC: Record<string, BuiltinImpl> = {
  plus: (args) => N.add(numeric(args, 0), numeric(args, 1)),
  minus: (args) => {
    const [a, b] = args;
    if (N.isNumOrBig(a) && N.isNumOrBig(b)) return N.sub(a, b);
    if (a instanceof RegoSet && b instanceof RegoSet) return setDiff(a, b);
    if (!N.isNumOrBig(a) && !(a instanceof RegoSet)) throw typeErr(1, a, oneOf('number', 'set'));
    // As OPA: a number on the right wants a set (left was a set), anything else wants a number.
    throw typeErr(2, b, N.isNumOrBig(b) ? 'set' : 'number');
  },
  mul: (args) => N.mul(numeric(args, 0), numeric(args, 1)),
  div: (args) => N.div(numeric(args, 0), numeric(args, 1)),
  rem: (args) => N.rem(num(args, 0), num(args, 1)),
  abs: (args) => {
    const x = num(args, 0);
    return x < 0 ? N.neg(x) : x;
  },
  round: (args) => {
    const x = num(args, 0);
    return typeof x === 'bigint' ? x : roundHalfAway(x);
  },
  ceil: (args) => {
    const x = num(args, 0);
    return typeof x === 'bigint' ? x : Math.ceil(x) || 0;
  },
  floor: (args) => {
    const x = num(args, 0);
    return typeof x === 'bigint' ? x : Math.floor(x) || 0;
  },
  'numbers.range': (args) => range(int(args, 0), int(args, 1), 1n),
  'numbers.range_step': (args) => {
    const a = int(args, 0);
    const b = int(args, 1);
    const step = int(args, 2);
    if (step <= 0) throw new BuiltinError('step must be a positive number above zero');
    return range(a, b, N.toBigInt(step));
  },
  'rand.intn': (args, ctx) => {
    const s = str(args, 0);
    let n = N.toBigInt(int(args, 1));
    if (n < 0n) n = -n;
    if (n === 0n) return 0;
    const key = `rand.intn\u0000${s}\u0000${n}`;
    const cached = ctx.cache.get(key);
    if (cached !== undefined) return cached as Value;
    const r = N.normalize(seededInt(ctx, `${s}\u0000${n}`, n));
    ctx.cache.set(key, r);
    return r;
  },
  'bits.and': (args) => {
    const [a, b] = bitsArgs(args);
    return N.normalize(a & b);
  },
  'bits.or': (args) => {
    const [a, b] = bitsArgs(args);
    return N.normalize(a | b);
  },
  'bits.xor': (args) => {
    const [a, b] = bitsArgs(args);
    return N.normalize(a ^ b);
  },
  'bits.negate': (args) => N.normalize(~N.toBigInt(int(args, 0))),
  'bits.lsh': (args) => {
    const [a, b] = bitsArgs(args);
    if (b < 0n) throw new BuiltinTypeError('operand 2 must be an unsigned integer number but got a negative integer');
    return N.normalize(a << b);
  },
  'bits.rsh': (args) => {
    const [a, b] = bitsArgs(args);
    if (b < 0n) throw new BuiltinTypeError('operand 2 must be an unsigned integer number but got a negative integer');
    return N.normalize(a >> b);
  },
};
