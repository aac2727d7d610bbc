/**
 * RFC 8785 (JSON Canonicalization Scheme), written for the verifier from the RFC's text alone: it shares no code
 * with the service's serializer, so a bug there cannot be reproduced here and "verified".
 *
 * Input is a parsed JSON value (null, booleans, finite numbers, strings, arrays, plain objects). The RFC requires
 * I-JSON input (RFC 7493), so anything else is refused with a JcsError rather than dropped or coerced: undefined,
 * NaN and the infinities, bigints, functions, symbols, array holes, objects that are not plain (a Date, a Map,
 * a class instance), and strings holding a surrogate code unit that is not half of a pair.
 *
 * Output rules (RFC 8785 section 3.2):
 * - no white space between tokens;
 * - literals as `null`, `true`, `false`;
 * - numbers as ECMAScript's Number-to-String conversion writes them (section 3.2.2.3), rebuilt below from the
 *   shortest round-trip digits by the ECMAScript formatting rules;
 * - strings with only `"`, `\` and U+0000..U+001F escaped, the five with a short form (\b \t \n \f \r) so written,
 *   the others as \u00XX in lowercase hex, every other character as itself (section 3.2.2.2);
 * - object members sorted by their names compared as arrays of UTF-16 code units (section 3.2.3), recursively.
 */

export class JcsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JcsError';
  }
}

/** The canonical JSON text of a parsed JSON value. Its UTF-8 bytes are what gets hashed or signed. */
export function jcsCanonicalize(value: unknown): string {
  const out: string[] = [];
  emit(value, '$', out);
  return out.join('');
}

function emit(value: unknown, where: string, out: string[]): void {
  if (value === null) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'number':
      out.push(jcsNumber(value, where));
      return;
    case 'string':
      out.push(jcsString(value, where));
      return;
    case 'object':
      if (Array.isArray(value)) return emitArray(value, where, out);
      return emitObject(value as object, where, out);
    default:
      throw new JcsError(`${where}: a ${typeof value} is not a JSON value`);
  }
}

function emitArray(items: readonly unknown[], where: string, out: string[]): void {
  out.push('[');
  for (let i = 0; i < items.length; i++) {
    if (!(i in items)) throw new JcsError(`${where}[${i}]: an array hole is not a JSON value`);
    if (i > 0) out.push(',');
    emit(items[i], `${where}[${i}]`, out);
  }
  out.push(']');
}

function emitObject(object: object, where: string, out: string[]): void {
  const proto = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== null) throw new JcsError(`${where}: only plain objects are JSON objects`);
  const names = Object.keys(object);
  names.sort(compareCodeUnits);
  out.push('{');
  names.forEach((name, i) => {
    if (i > 0) out.push(',');
    const member = `${where}.${name}`;
    out.push(jcsString(name, member), ':');
    emit((object as Record<string, unknown>)[name], member, out);
  });
  out.push('}');
}

/** Orders two strings by their UTF-16 code units, the shorter first when one is a prefix of the other. */
export function compareCodeUnits(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

const SHORT_ESCAPES: Record<number, string> = { 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\' };

function jcsString(text: string, where: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const short = SHORT_ESCAPES[unit];
    if (short !== undefined) {
      out += short;
    } else if (unit < 0x20) {
      out += `\\u${unit.toString(16).padStart(4, '0')}`;
    } else if (unit >= 0xd800 && unit <= 0xdbff) {
      // A high surrogate must be followed by a low one; the pair is one character, written as itself.
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : -1;
      if (next < 0xdc00 || next > 0xdfff) throw new JcsError(`${where}: a string holds an unpaired surrogate (not I-JSON)`);
      out += text[i] + text[i + 1];
      i++;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      throw new JcsError(`${where}: a string holds an unpaired surrogate (not I-JSON)`);
    } else {
      out += text[i];
    }
  }
  return `${out}"`;
}

/**
 * ECMAScript Number::toString (ECMA-262, radix 10) for a finite number, as RFC 8785 section 3.2.2.3 requires.
 * The engine supplies only the shortest digit string that reads back as the same double (toExponential with no
 * argument); where the decimal point goes and when to switch to exponent form follow the ECMAScript steps:
 * with digits d1..dk and the value being 0.d1..dk x 10^n,
 *   k <= n <= 21   -> the digits, then n - k zeros
 *   0 < n <= 21    -> the first n digits, ".", the rest
 *   -6 < n <= 0    -> "0.", -n zeros, the digits
 *   otherwise      -> d1 ["." d2..dk] "e" sign (n - 1)
 */
export function jcsNumber(x: number, where = '$'): string {
  if (!Number.isFinite(x)) throw new JcsError(`${where}: ${x} is not a JSON number`);
  if (x === 0) return '0'; // +0 and -0 alike
  if (x < 0) return `-${jcsNumber(-x, where)}`;
  const exponential = x.toExponential(); // "d.ddde+N" or "de-N"
  const e = exponential.indexOf('e');
  const digits = exponential.slice(0, e).replace('.', '');
  const k = digits.length;
  const n = Number(exponential.slice(e + 1)) + 1;
  if (k <= n && n <= 21) return digits + '0'.repeat(n - k);
  if (0 < n && n <= 21) return `${digits.slice(0, n)}.${digits.slice(n)}`;
  if (-6 < n && n <= 0) return `0.${'0'.repeat(-n)}${digits}`;
  const exponent = n - 1;
  const sign = exponent < 0 ? '-' : '+';
  const mantissa = k === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return `${mantissa}e${sign}${Math.abs(exponent)}`;
}
