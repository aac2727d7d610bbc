/**
 * regex.globs_match: whether two "regex globs" can match a common string. The glob language (as in the
 * glob-intersection library OPA uses) is a sequence of tokens - a literal (possibly \-escaped), `.`, or a
 * class `[...]` - each optionally followed by `*` or `+`. The check walks the product of the two token
 * automata.
 */
import { BuiltinError } from './errors';

type Ranges = Array<[number, number]>; // sorted, disjoint, inclusive code point ranges
interface Tok {
  set: Ranges;
  star: boolean; // zero or more
}

const MAX = 0x10ffff;

function normalize(r: Ranges): Ranges {
  const s = r.slice().sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const [a, b] of s) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

function complement(r: Ranges): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (const [a, b] of r) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAX) out.push([next, MAX]);
  return out;
}

function intersects(x: Ranges, y: Ranges): boolean {
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i][1] < y[j][0]) i++;
    else if (y[j][1] < x[i][0]) j++;
    else return true;
  }
  return false;
}

function parseGlob(g: string): Tok[] {
  const cps = Array.from(g).map((c) => c.codePointAt(0)!);
  const toks: Tok[] = [];
  let i = 0;
  const escaped = (): number => {
    i++;
    if (i >= cps.length) throw new BuiltinError(`invalid glob: trailing escape in ${JSON.stringify(g)}`);
    return cps[i++];
  };
  while (i < cps.length) {
    const c = cps[i];
    let set: Ranges;
    if (c === 0x5c /* \ */) {
      const e = escaped();
      set = [[e, e]];
    } else if (c === 0x2e /* . */) {
      set = [[0, MAX]];
      i++;
    } else if (c === 0x5b /* [ */) {
      i++;
      let neg = false;
      if (cps[i] === 0x5e /* ^ */) {
        neg = true;
        i++;
      }
      const ranges: Ranges = [];
      let first = true;
      while (i < cps.length && (cps[i] !== 0x5d || first)) {
        first = false;
        let lo = cps[i] === 0x5c ? escaped() : cps[i++];
        let hi = lo;
        if (cps[i] === 0x2d /* - */ && i + 1 < cps.length && cps[i + 1] !== 0x5d) {
          i++;
          hi = cps[i] === 0x5c ? escaped() : cps[i++];
        }
        if (hi < lo) [lo, hi] = [hi, lo];
        ranges.push([lo, hi]);
      }
      if (cps[i] !== 0x5d) throw new BuiltinError(`invalid glob: unclosed character class in ${JSON.stringify(g)}`);
      i++;
      set = normalize(ranges);
      if (neg) set = complement(set);
    } else if (c === 0x2a || c === 0x2b /* * + */) {
      throw new BuiltinError(`invalid glob: quantifier without a preceding token in ${JSON.stringify(g)}`);
    } else {
      set = [[c, c]];
      i++;
    }
    if (cps[i] === 0x2a) {
      i++;
      toks.push({ set, star: true });
    } else if (cps[i] === 0x2b) {
      i++;
      toks.push({ set, star: false }, { set, star: true });
    } else toks.push({ set, star: false });
  }
  return toks;
}

export function globsMatch(g1: string, g2: string): boolean {
  const a = parseGlob(g1);
  const b = parseGlob(g2);
  const seen = new Set<number>();
  const stack: Array<[number, number]> = [[0, 0]];
  const W = b.length + 1;
  while (stack.length) {
    const [i, j] = stack.pop()!;
    const key = i * W + j;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === a.length && j === b.length) return true;
    if (i < a.length && a[i].star) stack.push([i + 1, j]);
    if (j < b.length && b[j].star) stack.push([i, j + 1]);
    if (i < a.length && j < b.length && intersects(a[i].set, b[j].set)) {
      stack.push([a[i].star ? i : i + 1, b[j].star ? j : j + 1]);
    }
  }
  return false;
}
