/**
 * Exact decimals for the numbers float64 cannot hold as written (OPA keeps a number's text and computes with big
 * floats): a literal with more digits than a float keeps (`0.1234567890123456789`), below its smallest value
 * (`1e-400`) or above its largest (`2e308`). Only such numbers are BigDecs; every other number stays a JS number
 * (or a bigint for big integers), so the common paths never see one. A BigDec never equals a float: it is made
 * only when no float denotes the same decimal. A leaf module (no imports).
 */
export class BigDec {
  // private fields: a BigDec has no own properties, so the paths that index or iterate plain objects (the hot
  // ones) need no check to see nothing in it, as for any number
  readonly #coef: bigint;
  readonly #exp: number;
  readonly #text: string;

  constructor(coef: bigint, exp: number, text: string) {
    this.#coef = coef;
    this.#exp = exp;
    this.#text = text;
  }

  /** value = coef × 10^exp; coef is not 0 and has no trailing zero digit */
  get coef(): bigint {
    return this.#coef;
  }

  get exp(): number {
    return this.#exp;
  }

  /** as written (a literal), or the canonical `<coef>e<exp>` of a computed value */
  get text(): string {
    return this.#text;
  }

  /** The nearest float (±Infinity or 0 beyond float64's range), for builtins that compute in float64. */
  toNumber(): number {
    return Number(this.text);
  }

  toString(): string {
    return this.text;
  }
}

/** An exact decimal c × 10^e (c may be 0). */
export interface Dec {
  c: bigint;
  e: number;
}

/** Significant digits kept by arithmetic on BigDecs (OPA's big floats keep 64 bits, about 19 digits). */
export const DEC_PRECISION = 34;

const DEC_TEXT = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/;

/** The exact decimal a numeric text denotes (`12.50`, `1e-400`, `-3E+2`). */
export function parseDec(text: string): Dec | undefined {
  const m = DEC_TEXT.exec(text);
  if (!m || (m[2] === '' && !m[3])) return undefined;
  const frac = m[3] ?? '';
  let digits = (m[2] + frac).replace(/^0+/, '');
  let e = Number(m[4] ?? '0') - frac.length;
  if (!Number.isSafeInteger(e)) return undefined;
  if (digits === '') return { c: 0n, e: 0 };
  const stripped = digits.replace(/0+$/, '');
  e += digits.length - stripped.length;
  digits = stripped;
  const c = BigInt(digits);
  return { c: m[1] === '-' ? -c : c, e };
}

function strip(c: bigint, e: number): Dec {
  if (c === 0n) return { c, e: 0 };
  const s = c.toString();
  let z = 0;
  while (s.charCodeAt(s.length - 1 - z) === 48) z++;
  return z ? { c: BigInt(s.slice(0, s.length - z)), e: e + z } : { c, e };
}

/** The decimal a number denotes: a float its shortest text (the literal it was read from), a bigint itself. */
export function decOf(x: number | bigint | BigDec): Dec {
  if (x instanceof BigDec) return { c: x.coef, e: x.exp };
  if (typeof x === 'bigint') return strip(x, 0);
  return parseDec(String(x))!;
}

function digitCount(c: bigint): number {
  return (c < 0n ? -c : c).toString().length;
}

export function decCompare(a: Dec, b: Dec): number {
  const sa = a.c < 0n ? -1 : a.c > 0n ? 1 : 0;
  const sb = b.c < 0n ? -1 : b.c > 0n ? 1 : 0;
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const ma = digitCount(a.c) + a.e;
  const mb = digitCount(b.c) + b.e;
  if (ma !== mb) return (ma < mb ? -1 : 1) * sa;
  // same magnitude: the exponents differ by at most the digit counts, so aligning is cheap
  const m = Math.min(a.e, b.e);
  const x = a.c * 10n ** BigInt(a.e - m);
  const y = b.c * 10n ** BigInt(b.e - m);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Rounds to `prec` significant digits, half away from zero. */
function round(d: Dec, prec = DEC_PRECISION): Dec {
  const neg = d.c < 0n;
  const s = (neg ? -d.c : d.c).toString();
  if (s.length <= prec) return strip(d.c, d.e);
  let c = BigInt(s.slice(0, prec));
  if (s.charCodeAt(prec) >= 53) c += 1n;
  return strip(neg ? -c : c, d.e + s.length - prec);
}

export function decAdd(a: Dec, b: Dec): Dec {
  if (a.c === 0n) return b;
  if (b.c === 0n) return a;
  // an operand below the other's precision does not change it (and aligning it could take unbounded digits)
  const ma = digitCount(a.c) + a.e;
  const mb = digitCount(b.c) + b.e;
  if (ma - mb > DEC_PRECISION + 2) return round(a);
  if (mb - ma > DEC_PRECISION + 2) return round(b);
  const m = Math.min(a.e, b.e);
  return round({ c: a.c * 10n ** BigInt(a.e - m) + b.c * 10n ** BigInt(b.e - m), e: m });
}

export function decNeg(a: Dec): Dec {
  return { c: -a.c, e: a.e };
}

export function decMul(a: Dec, b: Dec): Dec {
  return round({ c: a.c * b.c, e: a.e + b.e });
}

/** a / b to DEC_PRECISION digits (b is not 0). */
export function decDiv(a: Dec, b: Dec): Dec {
  if (a.c === 0n) return a;
  const k = Math.max(0, DEC_PRECISION + 2 + digitCount(b.c) - digitCount(a.c));
  return round({ c: (a.c * 10n ** BigInt(k)) / b.c, e: a.e - b.e - k });
}

/** Canonical text: `<coef>` or `<coef>e<exp>`. */
export function decText(d: Dec): string {
  return d.e === 0 ? d.c.toString() : `${d.c}e${d.e}`;
}
