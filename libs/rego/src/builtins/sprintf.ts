/**
 * sprintf with Go fmt semantics, fed the way OPA feeds it: integers as int (or *big.Int beyond int64),
 * other numbers as float64, strings as string, and every other value as its Rego text (so `%v` of an array
 * prints `["a", 1]`, and `%t` of a boolean prints `%!t(string=true)` exactly as OPA does).
 */
import { Value, regoString, goQuote, goQuoteRune } from '../value';
import { BigDec } from '../decimal';
import type { BuiltinImpl } from './contract';
import { str, arr } from './operands';
import { BuiltinError } from './errors';

type GoArg =
  | { k: 'int'; v: bigint } // Go int (int64 range)
  | { k: 'big'; v: bigint } // *big.Int
  | { k: 'float'; v: number }
  | { k: 'string'; v: string };

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

function toGoArg(v: Value): GoArg {
  if (typeof v === 'number') {
    if (Number.isInteger(v)) {
      const b = BigInt(v);
      return b >= INT64_MIN && b <= INT64_MAX ? { k: 'int', v: b } : { k: 'big', v: b };
    }
    return { k: 'float', v };
  }
  if (typeof v === 'bigint') {
    // Beyond float64's range OPA keeps the literal text (e.g. 2e308); print such values in exponent form.
    if (v >= 2n ** 1024n || v <= -(2n ** 1024n)) return { k: 'string', v: bigExpText(v) };
    return v >= INT64_MIN && v <= INT64_MAX ? { k: 'int', v } : { k: 'big', v };
  }
  if (typeof v === 'string') return { k: 'string', v };
  // an exact decimal as OPA passes its text to Go: a float64 when ParseFloat reads it, else the text itself
  if (v instanceof BigDec) return Number.isFinite(v.toNumber()) ? { k: 'float', v: v.toNumber() } : { k: 'string', v: v.text };
  return { k: 'string', v: regoString(v) };
}

function bigExpText(v: bigint): string {
  const neg = v < 0n;
  let d = (neg ? -v : v).toString();
  const exp = d.length - 1;
  d = d.replace(/0+$/, '');
  const mant = d.length > 1 ? d[0] + '.' + d.slice(1) : d;
  return (neg ? '-' : '') + mant + 'e' + exp;
}

/**
 * Go's fmt bounds widths and precisions itself (its `tooLarge`): a `*` argument beyond ±10^6 is `%!(BADWIDTH)` /
 * `%!(BADPREC)`, and a literal number stops being read once it passes 10^6 (the rest of the format is then
 * `%!(NOVERB)`). Those are OPA's semantics, reproduced here, so sprintf needs no cap of its own.
 */
const GO_MAX_WIDTH = 1_000_000;
const tooLarge = (x: number): boolean => x > GO_MAX_WIDTH || x < -GO_MAX_WIDTH;

/** Go's parsenum: the number at `start`, or none (and the end of the format) when it grows too large. */
function parseNum(s: string, start: number): { num: number; isNum: boolean; next: number } {
  let num = 0;
  let isNum = false;
  let i = start;
  for (; i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57; i++) {
    if (tooLarge(num)) return { num: 0, isNum: false, next: s.length };
    num = num * 10 + (s.charCodeAt(i) - 48);
    isNum = true;
  }
  return { num, isNum, next: i };
}

interface Spec {
  minus: boolean;
  plus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  width?: number;
  prec?: number;
}

function typeOf(a: GoArg): string {
  return a.k === 'int' ? 'int' : a.k === 'big' ? '*big.Int' : a.k === 'float' ? 'float64' : 'string';
}

function argText(a: GoArg): string {
  switch (a.k) {
    case 'int':
    case 'big':
      return a.v.toString();
    case 'float':
      return formatFloat(a.v, 'g', -1);
    case 'string':
      return a.v;
  }
}

function bad(verb: string, a: GoArg): string {
  return `%!${verb}(${typeOf(a)}=${argText(a)})`;
}

/** Pads to the width: left-justify with '-', zeros after the sign with '0' (numbers only). */
function pad(s: string, sp: Spec, numeric: boolean): string {
  if (sp.width === undefined) return s;
  const len = Array.from(s).length;
  if (len >= sp.width) return s;
  const fill = sp.width - len;
  if (sp.minus) return s + ' '.repeat(fill);
  if (sp.zero && numeric) {
    const m = /^([+\- ]?(?:0[xXbBoO])?)(.*)$/s.exec(s)!;
    return m[1] + '0'.repeat(fill) + m[2];
  }
  return ' '.repeat(fill) + s;
}

function signed(s: string, neg: boolean, sp: Spec): string {
  if (neg) return '-' + s;
  if (sp.plus) return '+' + s;
  if (sp.space) return ' ' + s;
  return s;
}

function fmtInteger(v: bigint, verb: string, sp: Spec): string {
  const neg = v < 0n;
  const a = neg ? -v : v;
  let digits: string;
  let prefix = '';
  switch (verb) {
    case 'd':
    case 'v':
    case 's':
      digits = a.toString(10);
      break;
    case 'b':
      digits = a.toString(2);
      if (sp.sharp) prefix = '0b';
      break;
    case 'o':
      digits = a.toString(8);
      if (sp.sharp) prefix = '0';
      break;
    case 'O':
      digits = a.toString(8);
      prefix = '0o';
      break;
    case 'x':
      digits = a.toString(16);
      if (sp.sharp) prefix = '0x';
      break;
    case 'X':
      digits = a.toString(16).toUpperCase();
      if (sp.sharp) prefix = '0X';
      break;
    default:
      digits = a.toString(10);
  }
  if (sp.prec !== undefined) {
    if (sp.prec === 0 && a === 0n) digits = '';
    else digits = digits.padStart(sp.prec, '0');
  }
  return pad(signed(prefix + digits, neg, sp), sp.prec !== undefined ? { ...sp, zero: false } : sp, true);
}

/** Shortest (prec < 0) or correctly rounded (half-even, like Go) digits of |x| in exponent form. */
function expDigits(x: number, prec: number): [string, number] {
  if (prec < 0 || x === 0) {
    if (prec >= 0) return ['0'.repeat(prec + 1), 0];
    const t = x.toExponential();
    const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(t)!;
    return [m[1] + (m[2] ?? ''), Number(m[3])];
  }
  const [digits, point] = exactDecimal(x);
  // digits d1d2d3... with value 0.d1d2... * 10^point; keep prec+1 significant digits
  const first = digits.search(/[1-9]/);
  const sig = digits.slice(first);
  const exp = point - first - 1;
  const rounded = roundDigits(sig, prec + 1);
  if (rounded.length > prec + 1) return [rounded.slice(0, prec + 1), exp + 1];
  return [rounded, exp];
}

/** Exact decimal expansion of a finite non-negative double: digits and the decimal point position. */
function exactDecimal(a: number): [string, number] {
  const [mant, exp2] = decompose(a);
  if (exp2 >= 0) {
    const s = (mant << BigInt(exp2)).toString();
    return [s, s.length];
  }
  // mant / 2^k = mant * 5^k / 10^k
  const k = -exp2;
  const s = (mant * 5n ** BigInt(k)).toString().padStart(k + 1, '0');
  return [s, s.length - k];
}

/** Rounds a digit string to n digits, half to even; may carry into one extra digit. */
function roundDigits(d: string, n: number): string {
  if (d.length <= n) return d.padEnd(n, '0');
  const keep = d.slice(0, n);
  const rest = d.slice(n);
  const half = rest[0] > '5' || (rest[0] === '5' && /[1-9]/.test(rest.slice(1)));
  const tie = rest[0] === '5' && !/[1-9]/.test(rest.slice(1));
  const up = half || (tie && n > 0 && Number(keep[n - 1]) % 2 === 1);
  if (!up) return keep;
  if (n === 0) return '1';
  return (BigInt(keep) + 1n).toString().padStart(n, '0');
}

function expText(e: number): string {
  const a = Math.abs(e);
  return (e < 0 ? '-' : '+') + (a < 10 ? '0' + a : String(a));
}

/** strconv.FormatFloat(x, fmt, prec, 64) for fmt in e, E, f, g, G (x finite, non-negative handled by caller). */
export function formatFloat(x: number, f: 'e' | 'E' | 'f' | 'g' | 'G', prec: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const neg = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  let out: string;
  if (f === 'e' || f === 'E') {
    const [d, e] = expDigits(a, prec);
    out = d[0] + (d.length > 1 ? '.' + d.slice(1) : '') + 'e' + expText(e);
    if (f === 'E') out = out.toUpperCase();
  } else if (f === 'f') {
    out = prec < 0 ? shortestFixed(a) : toFixedExact(a, prec);
  } else {
    // %g: shortest digits (prec -1) or prec significant digits
    const shortest = prec < 0;
    let p = prec === 0 ? 1 : prec;
    const [d0, e] = expDigits(a, shortest ? -1 : p - 1);
    let d = d0;
    if (!shortest) d = d.replace(/0+$/, '') || '0';
    if (shortest) p = d.length;
    const eprec = shortest ? 6 : p;
    if (e < -4 || e >= eprec) {
      out = d[0] + (d.length > 1 ? '.' + d.slice(1) : '') + 'e' + expText(e);
    } else if (e >= 0) {
      const ip = d.slice(0, e + 1).padEnd(e + 1, '0');
      const fp = d.slice(e + 1);
      out = ip + (fp ? '.' + fp : '');
    } else {
      out = '0.' + '0'.repeat(-e - 1) + d;
    }
    if (f === 'G') out = out.toUpperCase();
  }
  return (neg ? '-' : '') + out;
}

function shortestFixed(a: number): string {
  const [d, e] = expDigits(a, -1);
  if (e >= 0) {
    const ip = d.slice(0, e + 1).padEnd(e + 1, '0');
    const fp = d.slice(e + 1);
    return ip + (fp ? '.' + fp : '');
  }
  return '0.' + '0'.repeat(-e - 1) + d;
}

/** Correctly rounded (half-even on the exact binary value, as Go) fixed notation. */
function toFixedExact(a: number, prec: number): string {
  const [digits, point] = exactDecimal(a);
  // value = 0.<digits> * 10^point; keep the integer digits plus `prec` fraction digits
  const e = point <= 0 ? '0'.repeat(-point) + digits : digits;
  const keep = (point > 0 ? point : 0) + prec;
  const r = roundDigits(e, keep);
  const ip = r.slice(0, r.length - prec).replace(/^0+(?=\d)/, '') || '0';
  return prec === 0 ? ip : ip + '.' + r.slice(r.length - prec);
}

function decompose(a: number): [bigint, number] {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, a);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const e = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (e === 0) return [m, -1074];
  m |= 1n << 52n;
  return [m, e - 1075];
}

function fmtFloatVerb(x: number, verb: string, sp: Spec): string {
  let s: string;
  switch (verb) {
    case 'v':
    case 'g':
    case 'G':
      s = formatFloat(x, verb === 'G' ? 'G' : 'g', sp.prec ?? -1);
      break;
    case 'e':
    case 'E':
      s = formatFloat(x, verb, sp.prec ?? 6);
      break;
    case 'f':
    case 'F':
      s = formatFloat(x, 'f', sp.prec ?? 6);
      break;
    default:
      s = formatFloat(x, 'g', -1);
  }
  if (!s.startsWith('-') && Number.isFinite(x)) {
    if (sp.plus) s = '+' + s;
    else if (sp.space) s = ' ' + s;
  } else if (s === '+Inf' && !sp.plus) s = sp.space ? ' Inf' : '+Inf';
  return pad(s, sp, Number.isFinite(x));
}

function hexOfString(s: string, upper: boolean, sp: Spec): string {
  const bytes = Buffer.from(s, 'utf8');
  let out = '';
  bytes.forEach((b, i) => {
    if (sp.space && i > 0) out += ' ';
    if (sp.sharp && (sp.space || i === 0)) out += upper ? '0X' : '0x';
    out += b.toString(16).padStart(2, '0');
  });
  return upper ? out.toUpperCase() : out;
}

/** Go's strconv.CanBackquote: no backquote, no control character but tab, no U+FEFF, valid UTF-8. */
function canBackquote(s: string): boolean {
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '`' || c === 0xfeff || (c < 0x20 && c !== 9) || c === 0x7f || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

function fmtString(s: string, verb: string, sp: Spec): string {
  switch (verb) {
    case 's':
    case 'v': {
      let t = s;
      if (sp.prec !== undefined) t = Array.from(t).slice(0, sp.prec).join('');
      return pad(t, sp, false);
    }
    case 'q': {
      let t = s;
      if (sp.prec !== undefined) t = Array.from(t).slice(0, sp.prec).join('');
      return pad(sp.sharp && canBackquote(t) ? '`' + t + '`' : goQuote(t, sp.plus), sp, false);
    }
    case 'x':
    case 'X':
      return pad(hexOfString(s, verb === 'X', sp), sp, false);
    default:
      return bad(verb, { k: 'string', v: s });
  }
}

function formatOne(a: GoArg, verb: string, sp: Spec): string {
  if (verb === 'T') return pad(typeOf(a), sp, false);
  switch (a.k) {
    case 'int':
      if ('vdboOxX'.includes(verb)) return fmtInteger(a.v, verb, sp);
      if (verb === 'c') return pad(String.fromCodePoint(Number(a.v)), sp, false);
      if (verb === 'q') return pad(goQuoteRune(Number(a.v), sp.plus), sp, false);
      if (verb === 'U') return pad('U+' + a.v.toString(16).toUpperCase().padStart(4, '0'), sp, false);
      if ('eEfFgG'.includes(verb)) return bad(verb, a);
      return bad(verb, a);
    case 'big':
      if ('vdsboOxX'.includes(verb)) return fmtInteger(a.v, verb, sp);
      return bad(verb, a);
    case 'float':
      if ('veEfFgG'.includes(verb)) return fmtFloatVerb(a.v, verb, sp);
      return bad(verb, a);
    case 'string':
      return fmtString(a.v, verb, sp);
  }
}

/** Go's fmt.Sprintf over Rego values. */
export function goSprintf(format: string, values: Value[]): string {
  const args = values.map(toGoArg);
  let out = '';
  let argi = 0;
  let reordered = false;
  const n = format.length;
  let i = 0;
  while (i < n) {
    const pct = format.indexOf('%', i);
    if (pct < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, pct);
    i = pct + 1;
    const sp: Spec = { minus: false, plus: false, sharp: false, space: false, zero: false };
    for (; i < n; i++) {
      const c = format[i];
      if (c === '-') sp.minus = true;
      else if (c === '+') sp.plus = true;
      else if (c === '#') sp.sharp = true;
      else if (c === ' ') sp.space = true;
      else if (c === '0') sp.zero = !sp.minus;
      else break;
    }
    const argIndex = (): void => {
      const m = /^\[(\d+)\]/.exec(format.slice(i));
      if (m) {
        argi = Number(m[1]) - 1;
        reordered = true;
        i += m[0].length;
      }
    };
    argIndex();
    if (format[i] === '*') {
      i++;
      const a = args[argi++];
      if (a && a.k === 'int' && !tooLarge(Number(a.v))) {
        sp.width = Number(a.v);
        if (sp.width < 0) {
          sp.minus = true;
          sp.width = -sp.width;
        }
      } else out += '%!(BADWIDTH)';
    } else {
      const w = parseNum(format, i);
      if (w.isNum) sp.width = w.num;
      i = w.next;
    }
    if (format[i] === '.') {
      i++;
      argIndex();
      if (format[i] === '*') {
        i++;
        const a = args[argi++];
        if (a && a.k === 'int' && !tooLarge(Number(a.v))) sp.prec = Math.max(0, Number(a.v));
        else out += '%!(BADPREC)';
      } else {
        const p = parseNum(format, i);
        sp.prec = p.num;
        i = p.next;
      }
    }
    argIndex();
    if (i >= n) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i)!);
    i += verb.length;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (argi >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    out += formatOne(args[argi++], verb, sp);
  }
  if (!reordered && argi < args.length) {
    out += '%!(EXTRA ' + args.slice(argi).map((a) => `${typeOf(a)}=${argText(a)}`).join(', ') + ')';
  }
  return out;
}

export const SPRINTF: Record<string, BuiltinImpl> = {
  sprintf: (args) => goSprintf(str(args, 0), arr(args, 1)),
};
