/**
 * Number helpers. Rego numbers are JS numbers (float64), with integers outside the safe range held exactly as
 * bigint. Integer arithmetic stays exact (as OPA's big.Int path does); anything involving a fraction is float64.
 */
import { BuiltinError } from './builtins/errors';
import { BigDec, Dec, decAdd, decCompare, decDiv, decMul, decNeg, decOf, decText } from './decimal';

export type Num = number | bigint;
/** Any Rego number: also the exact decimals float64 cannot hold (decimal.ts), which only + - * / and comparisons keep exact. */
export type Numeric = Num | BigDec;

/** An arithmetic result on decimals: a float or integer when one denotes it exactly, else a BigDec. */
function fromDec(d: Dec): Numeric {
  if (d.c === 0n) return 0;
  const digits = (d.c < 0n ? -d.c : d.c).toString().length;
  if (d.e >= 0 && digits + d.e <= 400) return normalize(d.c * 10n ** BigInt(d.e));
  if (d.e < 0) {
    const f = Number(decText(d));
    if (Number.isFinite(f) && f !== 0 && decCompare(decOf(f), d) === 0) return f;
  }
  return new BigDec(d.c, d.e, decText(d));
}

/** The float a number is nearest to (BigDecs beyond float64's range become ±Infinity or 0). */
export function approx(x: Numeric): Num {
  return x instanceof BigDec ? x.toNumber() : x;
}

/** An integer within the safe range is always a plain number. */
export function normalize(x: Num): Num {
  if (typeof x === 'bigint') {
    // Number() is exact within the safe range and lands outside it otherwise (no bigint comparisons needed)
    const n = Number(x);
    return Number.isSafeInteger(n) ? n : x;
  }
  return x;
}

export function isInt(x: Numeric): boolean {
  return typeof x === 'bigint' || Number.isInteger(x);
}

/** Exact bigint of an integral number (caller checks isInt). */
export function toBigInt(x: Num): bigint {
  return typeof x === 'bigint' ? x : BigInt(x);
}

export function toFloat(x: Numeric): number {
  return typeof x === 'bigint' ? Number(x) : typeof x === 'object' ? x.toNumber() : x;
}

/**
 * OPA does float arithmetic in big.Float with a 64-bit mantissa and prints the shortest decimal at that precision,
 * so sums and products of short decimals come out exact (0.1 + 0.2 is 0.3). In float64 the same result is a few
 * ulps off; snap it to the short decimal it denotes when one is that close. Results that are genuinely long
 * (1/3) are left alone.
 */
export function snapFloat(r: number): number {
  if (!Number.isFinite(r) || Number.isInteger(r)) return r;
  const c = Number(r.toPrecision(15));
  if (c === r) return r;
  const digits = c.toExponential().replace(/e.*$/, '').replace(/[-.]/g, '').length;
  if (digits > 12) return r;
  const ulp = Math.abs(r) * Number.EPSILON;
  return Math.abs(c - r) <= 4 * ulp ? c : r;
}

function bothSafeInts(a: Numeric, b: Numeric): boolean {
  return typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a) && Number.isSafeInteger(b);
}

export function add(a: Numeric, b: Numeric): Numeric {
  if (bothSafeInts(a, b)) {
    const r = (a as number) + (b as number);
    return Number.isSafeInteger(r) ? r : normalize(BigInt(a as number) + BigInt(b as number));
  }
  if (typeof a === 'object' || typeof b === 'object') return fromDec(decAdd(decOf(a), decOf(b)));
  if (isInt(a) && isInt(b)) return normalize(toBigInt(a) + toBigInt(b));
  return snapFloat(toFloat(a) + toFloat(b));
}

export function sub(a: Numeric, b: Numeric): Numeric {
  if (bothSafeInts(a, b)) {
    const r = (a as number) - (b as number);
    return Number.isSafeInteger(r) ? r : normalize(BigInt(a as number) - BigInt(b as number));
  }
  if (typeof a === 'object' || typeof b === 'object') return fromDec(decAdd(decOf(a), decNeg(decOf(b))));
  if (isInt(a) && isInt(b)) return normalize(toBigInt(a) - toBigInt(b));
  return snapFloat(toFloat(a) - toFloat(b));
}

export function mul(a: Numeric, b: Numeric): Numeric {
  if (bothSafeInts(a, b)) {
    const r = (a as number) * (b as number);
    return Number.isSafeInteger(r) ? (r === 0 ? 0 : r) : normalize(BigInt(a as number) * BigInt(b as number));
  }
  if (typeof a === 'object' || typeof b === 'object') return fromDec(decMul(decOf(a), decOf(b)));
  if (isInt(a) && isInt(b)) return normalize(toBigInt(a) * toBigInt(b));
  return snapFloat(toFloat(a) * toFloat(b));
}

/** Exact when both are integers and the division is exact; float64 otherwise. */
export function div(a: Numeric, b: Numeric): Numeric {
  if (b === 0 || b === 0n) throw new BuiltinError('divide by zero');
  if (typeof a === 'object' || typeof b === 'object') return fromDec(decDiv(decOf(a), decOf(b)));
  if (isInt(a) && isInt(b)) {
    const x = toBigInt(a);
    const y = toBigInt(b);
    if (x % y === 0n) return normalize(x / y);
  }
  const r = snapFloat(toFloat(a) / toFloat(b));
  return Object.is(r, -0) ? 0 : r;
}

/** Integer remainder with the dividend's sign (Go's %). */
export function rem(a: Numeric, b: Numeric): Num {
  if (typeof a === 'object' || typeof b === 'object') return rem(approx(a), approx(b));
  if (!isInt(a) || !isInt(b)) throw new BuiltinError('modulo on floating-point number');
  if (b === 0 || b === 0n) throw new BuiltinError('modulo by zero');
  if (bothSafeInts(a, b)) {
    const r = (a as number) % (b as number);
    return r === 0 ? 0 : r;
  }
  return normalize(toBigInt(a) % toBigInt(b));
}

export function neg(a: Numeric): Numeric {
  if (typeof a === 'bigint') return normalize(-a);
  if (typeof a === 'object') return new BigDec(-a.coef, a.exp, a.text.startsWith('-') ? a.text.slice(1) : '-' + a.text);
  return a === 0 ? 0 : -a;
}

export function compareNum(a: Numeric, b: Numeric): number {
  if (typeof a === 'object' || typeof b === 'object') return decCompare(decOf(a), decOf(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Parses a Rego/JSON number literal. Integers keep exact values (bigint beyond the safe range);
 * returns undefined for text that is not a valid number.
 */
export function parseNumber(text: string): Num | undefined {
  if (!/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text)) return undefined;
  if (/^-?[0-9]+$/.test(text)) {
    const n = Number(text);
    if (n === 0) return 0; // no negative zero
    return Number.isSafeInteger(n) ? n : normalize(BigInt(text));
  }
  // An exponent form may still be an exact big integer (e.g. 1e20); keep it exact.
  const n = Number(text);
  if (!Number.isFinite(n)) return exactFromDecimal(text) ?? n;
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) return exactFromDecimal(text) ?? n;
  return n === 0 ? 0 : n;
}

/** Exact integer value of a decimal text with fraction/exponent, if it is an integer. */
function exactFromDecimal(text: string): bigint | undefined {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!m) return undefined;
  const digits = m[2] + (m[3] ?? '');
  let exp = Number(m[4] ?? '0') - (m[3] ?? '').length;
  let d = digits.replace(/^0+/, '') || '0';
  while (exp < 0 && d.endsWith('0')) {
    d = d.slice(0, -1);
    exp++;
  }
  if (exp < 0) return undefined;
  if (exp > 100000) return undefined; // refuse absurd sizes
  const v = BigInt(d + '0'.repeat(exp));
  return m[1] === '-' ? -v : v;
}

/** Decimal text as OPA prints numbers: integers in full (no exponent), others shortest round-trip. */
export function numberToString(x: Numeric): string {
  if (typeof x === 'bigint') return x.toString();
  if (typeof x === 'object') return x.text;
  if (Number.isInteger(x)) return Number.isSafeInteger(x) ? String(x) : BigInt(x).toString();
  return String(x);
}

export function isNumOrBig(v: unknown): v is Numeric {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof BigDec;
}
