/** String builtins (Go strings-package semantics; indices and lengths count runes). */
import { Value, RegoSet, isObject, objEntries, compare, typeName } from '../value';
import * as N from '../number';
import type { BuiltinImpl } from './contract';
import { BuiltinError, BuiltinTypeError } from './errors';
import { str, typeErr, oneOf, smallInt } from './operands';
import { runeCount, isBmp, runes } from './utf8';
import { renderTemplate } from './template';

/** Strings of an array/set operand, with OPA's element error. */
export function stringList(v: Value, pos: number): string[] {
  const xs = Array.isArray(v) ? v : v instanceof RegoSet ? v.sorted() : undefined;
  if (!xs) throw typeErr(pos, v, oneOf('set', 'array'));
  for (const x of xs) {
    if (typeof x !== 'string') {
      throw new BuiltinTypeError(`operand ${pos} must be ${typeName(v)} of strings but got ${typeName(v)} containing ${typeName(x)}`);
    }
  }
  return xs as string[];
}

/** Go's strings.Replace(s, old, new, -1), including the empty-`old` case (insert at every rune boundary). */
export function replaceAll(s: string, old: string, rep: string): string {
  if (old === '') return rep + runes(s).join(rep) + (s === '' ? '' : rep);
  return s.split(old).join(rep);
}

/** Go's strings.NewReplacer(pairs...).Replace(s): at each position the first matching pair (argument order) wins. */
export function replaceMany(s: string, pairs: [string, string][]): string {
  if (pairs.length === 0) return s;
  if (pairs.length === 1) return replaceAll(s, pairs[0][0], pairs[0][1]);
  let out = '';
  let i = 0;
  while (i <= s.length) {
    let hit = false;
    for (const [o, n] of pairs) {
      if (s.startsWith(o, i)) {
        out += n;
        if (o === '') {
          if (i < s.length) {
            const cp = s.codePointAt(i)!;
            const len = cp > 0xffff ? 2 : 1;
            out += s.slice(i, i + len);
            i += len;
          } else i++;
        } else i += o.length;
        hit = true;
        break;
      }
    }
    if (!hit) {
      if (i < s.length) out += s[i];
      i++;
    }
  }
  return out;
}

function cutsetTest(cutset: string): (cp: string) => boolean {
  const set = new Set(runes(cutset));
  return (c) => set.has(c);
}

export function trimLeftFn(s: string, test: (c: string) => boolean): string {
  const rs = runes(s);
  let i = 0;
  while (i < rs.length && test(rs[i])) i++;
  return i === 0 ? s : rs.slice(i).join('');
}

export function trimRightFn(s: string, test: (c: string) => boolean): string {
  const rs = runes(s);
  let j = rs.length;
  while (j > 0 && test(rs[j - 1])) j--;
  return j === rs.length ? s : rs.slice(0, j).join('');
}

/** Go's unicode.IsSpace. */
export function isGoSpace(c: string): boolean {
  switch (c) {
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case ' ':
    case '\u0085':
    case '\u00a0':
    case '\u1680':
    case '\u2028':
    case '\u2029':
    case '\u202f':
    case '\u205f':
    case '\u3000':
      return true;
  }
  const cp = c.codePointAt(0)!;
  return cp >= 0x2000 && cp <= 0x200a;
}

/** Per-rune case mapping as Go does (a rune never expands into several, unlike JS's "ß".toUpperCase()). */
function mapCase(s: string, upper: boolean): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return upper ? s.toUpperCase() : s.toLowerCase();
  let out = '';
  for (const c of s) {
    const m = upper ? c.toUpperCase() : c.toLowerCase();
    out += runeCount(m) === 1 ? m : c;
  }
  return out;
}

/** Rune index of needle in s starting from rune offset 0, or -1. */
function runeIndexOf(s: string, needle: string): number {
  const i = s.indexOf(needle);
  if (i < 0 || isBmp(s)) return i;
  return runeCount(s.slice(0, i));
}

function goSplit(s: string, sep: string): string[] {
  if (sep === '') return runes(s);
  return s.split(sep);
}

function prefixOperand(v: Value, pos: number): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) || v instanceof RegoSet) return stringList(v, pos);
  throw typeErr(pos, v, oneOf('string', 'set', 'array'));
}

function formatInt(x: N.Num, base: number): string {
  let b: bigint;
  if (typeof x === 'bigint') b = x;
  else b = BigInt(Math.trunc(x));
  return b.toString(base);
}

export const STRINGS: Record<string, BuiltinImpl> = {
  concat: (args) => stringList(args[1], 2).join(str(args, 0)),
  format_int: (args) => {
    const x = N.isNumOrBig(args[0]) ? args[0] : undefined;
    if (x === undefined) throw typeErr(1, args[0], 'number');
    const base = args[1];
    if (!N.isNumOrBig(base)) throw typeErr(2, base, 'number');
    if (base !== 2 && base !== 8 && base !== 10 && base !== 16) {
      throw new BuiltinTypeError('operand 2 must be one of {2, 8, 10, 16}');
    }
    return formatInt(N.approx(x), base);
  },
  indexof: (args) => {
    const s = str(args, 0);
    const n = str(args, 1);
    if (n === '') throw new BuiltinError('empty search character');
    return runeIndexOf(s, n);
  },
  indexof_n: (args) => {
    const s = str(args, 0);
    const n = str(args, 1);
    if (n === '') throw new BuiltinError('empty search character');
    const out: Value[] = [];
    const bmp = isBmp(s);
    for (let i = s.indexOf(n); i >= 0; i = s.indexOf(n, i + 1)) out.push(bmp ? i : runeCount(s.slice(0, i)));
    return out;
  },
  substring: (args) => {
    const s = str(args, 0);
    const start = smallInt(args, 1);
    const len = smallInt(args, 2);
    if (start < 0) throw new BuiltinError('negative offset');
    if (isBmp(s)) {
      if (start >= s.length) return '';
      return len < 0 ? s.slice(start) : s.slice(start, start + len);
    }
    const rs = runes(s);
    if (start >= rs.length) return '';
    return (len < 0 ? rs.slice(start) : rs.slice(start, start + len)).join('');
  },
  contains: (args) => str(args, 0).includes(str(args, 1)),
  'strings.count': (args) => {
    const s = str(args, 0);
    const sub = str(args, 1);
    if (sub === '') return runeCount(s) + 1;
    return s.split(sub).length - 1;
  },
  startswith: (args) => str(args, 0).startsWith(str(args, 1)),
  endswith: (args) => str(args, 0).endsWith(str(args, 1)),
  lower: (args) => mapCase(str(args, 0), false),
  upper: (args) => mapCase(str(args, 0), true),
  split: (args) => {
    const s = str(args, 0);
    const d = str(args, 1);
    return goSplit(s, d);
  },
  'strings.split_n': (args) => {
    const s = str(args, 0);
    const d = str(args, 1);
    const n = smallInt(args, 2);
    const parts = goSplit(s, d);
    if (s === '' && d !== '') parts.splice(0, parts.length, '');
    if (n === 0) return [];
    if (n > 0) return parts.slice(0, n);
    return parts.slice(Math.max(0, parts.length + n));
  },
  replace: (args) => replaceAll(str(args, 0), str(args, 1), str(args, 2)),
  'strings.replace_n': (args) => {
    const p = args[0];
    if (!isObject(p)) throw typeErr(1, p, 'object');
    const entries = objEntries(p).sort((a, b) => compare(a[0], b[0]));
    const s = str(args, 1);
    const pairs: [string, string][] = [];
    for (const [k, v] of entries) {
      if (typeof k !== 'string') throw new BuiltinTypeError('operand 1 non-string key found in pattern object');
      if (typeof v !== 'string') throw new BuiltinTypeError('operand 1 non-string value found in pattern object');
      pairs.push([k, v]);
    }
    return replaceMany(s, pairs);
  },
  'strings.reverse': (args) => runes(str(args, 0)).reverse().join(''),
  trim: (args) => {
    const t = cutsetTest(str(args, 1));
    return trimRightFn(trimLeftFn(str(args, 0), t), t);
  },
  trim_left: (args) => trimLeftFn(str(args, 0), cutsetTest(str(args, 1))),
  trim_right: (args) => trimRightFn(str(args, 0), cutsetTest(str(args, 1))),
  trim_prefix: (args) => {
    const s = str(args, 0);
    const p = str(args, 1);
    return s.startsWith(p) ? s.slice(p.length) : s;
  },
  trim_suffix: (args) => {
    const s = str(args, 0);
    const p = str(args, 1);
    return p !== '' && s.endsWith(p) ? s.slice(0, s.length - p.length) : s;
  },
  trim_space: (args) => trimRightFn(trimLeftFn(str(args, 0), isGoSpace), isGoSpace),
  'strings.any_prefix_match': (args) => {
    const ss = prefixOperand(args[0], 1);
    const ps = prefixOperand(args[1], 2);
    return ss.some((s) => ps.some((p) => s.startsWith(p)));
  },
  'strings.any_suffix_match': (args) => {
    const ss = prefixOperand(args[0], 1);
    const ps = prefixOperand(args[1], 2);
    return ss.some((s) => ps.some((p) => s.endsWith(p)));
  },
  'strings.render_template': (args) => {
    const t = str(args, 0);
    const vars = args[1];
    if (!isObject(vars)) throw typeErr(2, vars, 'object');
    return renderTemplate(t, vars);
  },
};


