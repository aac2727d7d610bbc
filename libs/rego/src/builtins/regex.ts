/** regex.* builtins on RE2 semantics (re2js, a port of Go's regexp), with a shared compile cache. */
import { RE2JS } from 're2js';
import { Value } from '../value';
import type { BuiltinImpl } from './contract';
import { BuiltinError } from './errors';
import { str, smallInt } from './operands';
import { globsMatch } from './regex-globs';

const CACHE_MAX = 1000;
const cache = new Map<string, RE2JS>();

/** Compiled pattern (Go regexp syntax); syntax errors become builtin errors with Go's message. */
export function compileRegex(pattern: string): RE2JS {
  let re = cache.get(pattern);
  if (re) return re;
  try {
    re = RE2JS.compile(pattern);
  } catch (e) {
    throw new BuiltinError((e as Error).message);
  }
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, re);
  return re;
}

/** Go's regexp.MatchString (unanchored). */
export function regexTest(pattern: string, s: string): boolean {
  return compileRegex(pattern).test(s);
}

type Re2 = ReturnType<RE2JS['re2']>;

/** Go's Regexp.Expand template expansion: $1, $name, ${name}, $$. */
function expand(tpl: string, s: string, m: number[], names: Record<string, number>): string {
  let out = '';
  let i = 0;
  while (i < tpl.length) {
    const d = tpl.indexOf('$', i);
    if (d < 0) {
      out += tpl.slice(i);
      break;
    }
    out += tpl.slice(i, d);
    i = d + 1;
    if (tpl[i] === '$') {
      out += '$';
      i++;
      continue;
    }
    let name: string | undefined;
    if (tpl[i] === '{') {
      const close = tpl.indexOf('}', i);
      const n = close < 0 ? '' : tpl.slice(i + 1, close);
      if (close >= 0 && /^[A-Za-z0-9_]+$/.test(n)) {
        name = n;
        i = close + 1;
      }
    } else {
      const mm = /^[A-Za-z0-9_]+/.exec(tpl.slice(i));
      if (mm) {
        name = mm[0];
        i += name.length;
      }
    }
    if (name === undefined) {
      out += '$';
      continue;
    }
    let idx: number | undefined;
    if (/^[0-9]+$/.test(name)) idx = Number(name);
    else idx = names[name];
    if (idx !== undefined && 2 * idx + 1 < m.length && m[2 * idx] >= 0) out += s.slice(m[2 * idx], m[2 * idx + 1]);
  }
  return out;
}

function replaceAll(re: Re2, s: string, tpl: string): string {
  const matches: number[][] = re.findAllSubmatchIndex(s, -1) ?? [];
  if (matches.length === 0) return s;
  const names = (re.namedGroups ?? {}) as Record<string, number>;
  let out = '';
  let last = 0;
  for (const m of matches) {
    out += s.slice(last, m[0]) + expand(tpl, s, m, names);
    last = m[1];
  }
  return out + s.slice(last);
}

/** Go's Regexp.Split(s, n). */
function split(re: Re2, pattern: string, s: string, n: number): string[] {
  if (n === 0) return [];
  if (pattern.length > 0 && s.length === 0) return [''];
  const matches: number[][] = re.findAllIndex(s, n) ?? [];
  const out: string[] = [];
  let beg = 0;
  let end = 0;
  for (const m of matches) {
    if (n > 0 && out.length === n - 1) break;
    end = m[0];
    if (m[1] !== 0) out.push(s.slice(beg, end));
    beg = m[1];
  }
  if (end !== s.length) out.push(s.slice(beg));
  return out;
}

/**
 * regex.template_match: literal text with `{regex}` parts between the delimiters, matched against the whole
 * value (gorilla/mux-style templates, as OPA uses).
 */
function templateToRegex(tpl: string, ds: string, de: string): string {
  let out = '^';
  let i = 0;
  while (i < tpl.length) {
    const open = tpl.indexOf(ds, i);
    if (open < 0) {
      out += RE2JS.quote(tpl.slice(i));
      break;
    }
    out += RE2JS.quote(tpl.slice(i, open));
    // find the matching end delimiter, allowing nested delimiters inside the pattern
    let depth = 0;
    let j = open;
    let close = -1;
    while (j < tpl.length) {
      if (tpl.startsWith(ds, j)) {
        depth++;
        j += ds.length;
      } else if (tpl.startsWith(de, j)) {
        depth--;
        if (depth === 0) {
          close = j;
          break;
        }
        j += de.length;
      } else j++;
    }
    if (close < 0) throw new BuiltinError(`unbalanced braces in ${JSON.stringify(tpl)}`);
    const patt = tpl.slice(open + ds.length, close);
    compileRegex(patt);
    out += '(' + patt + ')';
    i = close + de.length;
  }
  return out + '$';
}

function delimiterChar(args: Value[], i: number): string {
  const d = str(args, i);
  if (d.length === 0) throw new BuiltinError('delimiter must not be empty');
  return d;
}

export const REGEX: Record<string, BuiltinImpl> = {
  'regex.match': (args) => regexTest(str(args, 0), str(args, 1)),
  re_match: (args) => regexTest(str(args, 0), str(args, 1)),
  'regex.is_valid': (args) => {
    const p = args[0];
    if (typeof p !== 'string') return false;
    try {
      compileRegex(p);
      return true;
    } catch {
      return false;
    }
  },
  'regex.split': (args) => {
    const p = str(args, 0);
    return split(compileRegex(p).re2(), p, str(args, 1), -1);
  },
  'regex.find_n': (args) => {
    const re = compileRegex(str(args, 0)).re2();
    const s = str(args, 1);
    const n = smallInt(args, 2);
    return (re.findAll(s, n) as string[] | null) ?? [];
  },
  'regex.find_all_string_submatch_n': (args) => {
    const re = compileRegex(str(args, 0)).re2();
    const s = str(args, 1);
    const n = smallInt(args, 2);
    const all = (re.findAllSubmatch(s, n) as (string | null)[][] | null) ?? [];
    return all.map((m) => m.map((g) => g ?? ''));
  },
  'regex.replace': (args) => {
    const s = str(args, 0);
    const re = compileRegex(str(args, 1)).re2();
    return replaceAll(re, s, str(args, 2));
  },
  'regex.template_match': (args) => {
    const tpl = str(args, 0);
    const s = str(args, 1);
    const re = templateToRegex(tpl, delimiterChar(args, 2), delimiterChar(args, 3));
    return compileRegex(re).test(s);
  },
  'regex.globs_match': (args) => globsMatch(str(args, 0), str(args, 1)),
};
