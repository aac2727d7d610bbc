/** Unification of terms with values and with each other (patterns with unbound vars on either side). */
import type { Term } from '../ast/types';
import { PlainObject, RegoObject, Value, equals, isObject, objGet } from '../value';
import { Ev, Frame, K } from './core';

// ------------------------------------------------------------------ unification
/** Unifies a term (possibly with unbound vars) with a ground value. */
export function unifyTV(ev: Ev, t: Term, v: Value, f: Frame, k: K): boolean {
  switch (t.type) {
    case 'var': {
      if (t.slot === -1) return ev.evalTerm(t, f, (x) => (equals(x, v) ? k() : false));
      const cur = f[t.slot!];
      if (cur !== undefined) return equals(cur, v) ? k() : false;
      f[t.slot!] = v;
      try {
        return k();
      } finally {
        f[t.slot!] = undefined;
      }
    }
    case 'scalar':
      return equals(t.value, v) ? k() : false;
    case 'array': {
      if (!Array.isArray(v) || v.length !== t.items.length) return false;
      return unifyItems(ev, t.items, v, 0, f, k);
    }
    case 'object': {
      if (!isObject(v)) return false;
      if ((v instanceof RegoObject ? v.size : Object.keys(v).length) !== t.items.length) return false;
      if (!isPattern(ev, t, f)) return ev.evalTerm(t, f, (x) => (equals(x, v) ? k() : false));
      return unifyObject(ev, t.items, v, 0, f, k);
    }
    default:
      return ev.evalTerm(t, f, (x) => (equals(x, v) ? k() : false));
  }
}

export function unifyItems(ev: Ev, items: Term[], vs: Value[], i: number, f: Frame, k: K): boolean {
  if (i === items.length) return k();
  return unifyTV(ev, items[i], vs[i], f, () => unifyItems(ev, items, vs, i + 1, f, k));
}

export function unifyObject(ev: Ev, items: [Term, Term][], v: PlainObject | RegoObject, i: number, f: Frame, k: K): boolean {
  if (i === items.length) return k();
  const [kt, vt] = items[i];
  return ev.evalTerm(kt, f, (key) => {
    const x = objGet(v, key);
    if (x === undefined) return false;
    return unifyTV(ev, vt, x, f, () => unifyObject(ev, items, v, i + 1, f, k));
  });
}

export function unifyTerms(ev: Ev, a: Term, b: Term, f: Frame, k: K): boolean {
  const pa = isPattern(ev, a, f);
  const pb = isPattern(ev, b, f);
  if (!pb) return ev.evalTerm(b, f, (v) => unifyTV(ev, a, v, f, k));
  if (!pa) return ev.evalTerm(a, f, (v) => unifyTV(ev, b, v, f, k));
  // both sides have unbound vars: unify element-wise, taking first the pairs with an evaluable side
  if (a.type === 'array' && b.type === 'array') {
    if (a.items.length !== b.items.length) return false;
    return unifyPairs(ev, a.items.map((x, i) => [x, b.items[i]] as [Term, Term]), f, k);
  }
  if (a.type === 'object' && b.type === 'object') {
    if (a.items.length !== b.items.length) return false;
    const pairs: [Term, Term][] = [];
    for (const [ka, va] of a.items) {
      const kva = keyOf(ev, ka, f);
      const m = b.items.find(([kb]) => {
        const kvb = keyOf(ev, kb, f);
        return kva !== undefined && kvb !== undefined && equals(kva, kvb);
      });
      if (!m) return false;
      pairs.push([va, m[1]]);
    }
    return unifyPairs(ev, pairs, f, k);
  }
  return false;
}

export function keyOf(ev: Ev, t: Term, f: Frame): Value | undefined {
  if (t.type === 'scalar') return t.value;
  if (t.type === 'var' && t.slot !== -1) return f[t.slot!];
  let out: Value | undefined;
  if (!isPattern(ev, t, f)) ev.evalTerm(t, f, (v) => ((out = v), true));
  return out;
}

export function unifyPairs(ev: Ev, pairs: [Term, Term][], f: Frame, k: K): boolean {
  if (pairs.length === 0) return k();
  let idx = pairs.findIndex(([x, y]) => !isPattern(ev, x, f) || !isPattern(ev, y, f));
  if (idx < 0) idx = 0;
  const [x, y] = pairs[idx];
  const rest = pairs.slice(0, idx).concat(pairs.slice(idx + 1));
  return unifyTerms(ev, x, y, f, () => unifyPairs(ev, rest, f, k));
}

/** Is the term a pattern (has an unbound var outside refs) rather than something to evaluate? */
export function isPattern(ev: Ev, t: Term, f: Frame): boolean {
  switch (t.type) {
    case 'var':
      return t.slot !== -1 && f[t.slot!] === undefined;
    case 'array':
    case 'set':
      return t.items.some((x) => isPattern(ev, x, f));
    case 'object':
      return t.items.some(([a, b]) => isPattern(ev, a, f) || isPattern(ev, b, f));
    default:
      return false;
  }
}
