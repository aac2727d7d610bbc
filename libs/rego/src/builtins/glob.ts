/**
 * glob.match / glob.quote_meta with gobwas/glob semantics: `*` (any run without delimiters), `**` (any run),
 * `?` (one non-delimiter char), `[a-z]` / `[!a-z]`, `{a,b}` alternatives, `\` escapes. Patterns are translated
 * to RE2 syntax so matching stays linear.
 */
import { RE2JS } from 're2js';
import { Value } from '../value';
import type { BuiltinImpl } from './contract';
import { BuiltinError, BuiltinTypeError } from './errors';
import { str, typeErr, oneOf } from './operands';

const cache = new Map<string, RE2JS>();

function quoteChar(c: string): string {
  return /[\\.+*?()|[\]{}^$]/.test(c) ? '\\' + c : c;
}

function classChar(c: string): string {
  return /[\\\]\[^-]/.test(c) ? '\\' + c : c;
}

function translate(pattern: string, delims: string[]): string {
  const chars = Array.from(pattern);
  const notDelim = delims.length ? '[^' + delims.map(classChar).join('') + ']' : '(?s:.)';
  let i = 0;
  const parseSeq = (inTerms: boolean): string => {
    let out = '';
    while (i < chars.length) {
      const c = chars[i];
      if (inTerms && (c === ',' || c === '}')) return out;
      if (c === '\\') {
        i++;
        if (i >= chars.length) throw new BuiltinError('unexpected end of input');
        out += quoteChar(chars[i++]);
      } else if (c === '*') {
        if (chars[i + 1] === '*') {
          i += 2;
          out += '(?s:.*)';
        } else {
          i++;
          out += notDelim + '*';
        }
      } else if (c === '?') {
        i++;
        out += notDelim;
      } else if (c === '[') {
        i++;
        let neg = false;
        if (chars[i] === '!') {
          neg = true;
          i++;
        }
        let cls = '';
        while (i < chars.length && chars[i] !== ']') {
          let lo = chars[i++];
          if (lo === '\\' && i < chars.length) lo = chars[i++];
          if (chars[i] === '-' && i + 1 < chars.length && chars[i + 1] !== ']') {
            i++;
            let hi = chars[i++];
            if (hi === '\\' && i < chars.length) hi = chars[i++];
            cls += classChar(lo) + '-' + classChar(hi);
          } else cls += classChar(lo);
        }
        if (chars[i] !== ']') throw new BuiltinError('unexpected end of input');
        i++;
        if (cls === '') throw new BuiltinError('unexpected length of range');
        out += '[' + (neg ? '^' : '') + cls + ']';
      } else if (c === '{') {
        i++;
        const alts: string[] = [];
        for (;;) {
          alts.push(parseSeq(true));
          if (i >= chars.length) throw new BuiltinError('unexpected end of input');
          if (chars[i++] === '}') break;
        }
        out += '(?:' + alts.join('|') + ')';
      } else {
        i++;
        out += quoteChar(c);
      }
    }
    if (inTerms) throw new BuiltinError('unexpected end of input');
    return out;
  };
  const body = parseSeq(false);
  return '^' + body + '$';
}

export function globMatch(pattern: string, delims: string[], s: string): boolean {
  const key = JSON.stringify([pattern, delims]);
  let re = cache.get(key);
  if (!re) {
    const src = translate(pattern, delims);
    try {
      re = RE2JS.compile(src);
    } catch (e) {
      throw new BuiltinError((e as Error).message);
    }
    if (cache.size > 1000) cache.delete(cache.keys().next().value as string);
    cache.set(key, re);
  }
  return re.test(s);
}

function delimiters(v: Value): string[] {
  if (v === null) return [];
  if (!Array.isArray(v)) throw typeErr(2, v, oneOf('array', 'null'));
  const out: string[] = [];
  for (const d of v) {
    if (typeof d !== 'string') throw new BuiltinTypeError(`operand 2 must be array of strings but got array containing ${typeof d}`);
    // Each delimiter is a rune; OPA takes the first rune of each string.
    const first = Array.from(d)[0];
    if (first !== undefined) out.push(first);
  }
  return out.length ? out : ['.'];
}

export const GLOB: Record<string, BuiltinImpl> = {
  'glob.match': (args) => globMatch(str(args, 0), delimiters(args[1]), str(args, 2)),
  'glob.quote_meta': (args) => str(args, 0).replace(/[*?\\[\]{}]/g, (c) => '\\' + c),
};
