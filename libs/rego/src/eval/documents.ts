/**
 * Documents under `data` and `input`: walking values along refs, the rule tree merged with base data, `with data`
 * masks, partial-rule lookups by key, and functions of no arguments read as documents.
 */
import type { RefTerm, Term } from '../ast/types';
import { RegoError } from '../errors';
import type { RuleNode } from '../compiler/tree';
import { PlainObject, RegoSet, Value, equals, hashKey, isObject, makeObject, objEntries, compareStrings, setOwn } from '../value';
import { indexValue, iterateValue, upsert } from './values';
import { Ev, Frame, KV, Multi, UNDEF } from './core';

// ------------------------------------------------------------------ refs
export function evalRef(ev: Ev, t: RefTerm, f: Frame, k: KV): boolean {
  const head = t.terms[0];
  if (head.type === 'var' && head.slot === -1) {
    if (head.name === 'data') return evalDataRef(ev, t.terms, 1, ev.policy.root, f, k);
    const input = ev.state.input;
    if (input === undefined) return false;
    return walkValue(ev, input, t.terms, 1, f, k);
  }
  return ev.evalTerm(head, f, (base) => walkValue(ev, base, t.terms, 1, f, k));
}

export function walkValue(ev: Ev, v: Value, terms: Term[], i: number, f: Frame, k: KV, dm = false): boolean {
  while (i < terms.length) {
    const op = terms[i];
    let key: Value | undefined;
    if (op.type === 'scalar') key = op.value;
    else if (op.type === 'var' && op.slot !== -1) {
      key = f[op.slot!];
      if (key === undefined) {
        const slot = op.slot!;
        const next = i + 1;
        try {
          return iterateValue(v, (kk, x) => {
            ev.tick();
            f[slot] = kk;
            return walkValue(ev, x, terms, next, f, k, dm);
          }, ev.ordered);
        } finally {
          f[slot] = undefined;
        }
      }
    } else if (ev.isPattern(op, f)) {
      const next = i + 1;
      return iterateValue(v, (kk, x) => ev.unifyTV(op, kk, f, () => walkValue(ev, x, terms, next, f, k)), ev.ordered);
    } else {
      const next = i + 1;
      return ev.evalTerm(op, f, (kk) => {
        const x = indexValue(v, kk);
        return x === undefined ? false : walkValue(ev, x, terms, next, f, k);
      });
    }
    const x = dm ? indexData(v, key) : indexValue(v, key);
    if (x === undefined) return false;
    v = x;
    i++;
  }
  return k(v);
}

export function masked(ev: Ev, path: readonly string[]): boolean {
  const masks = ev.state.masks;
  if (!masks.length) return false;
  outer: for (const m of masks) {
    if (m.length > path.length) continue;
    for (let j = 0; j < m.length; j++) if (m[j] !== path[j]) continue outer;
    return true;
  }
  return false;
}

export function baseAt(ev: Ev, path: readonly string[]): Value | undefined {
  let v: Value | undefined = ev.state.data;
  for (const p of path) {
    if (v === undefined) return undefined;
    v = indexValue(v, p);
  }
  return v;
}

export function evalDataRef(ev: Ev, terms: Term[], i: number, node: RuleNode, f: Frame, k: KV): boolean {
  for (;;) {
    if (masked(ev, node.path) || !node.hasRules) {
      const base = baseAt(ev, node.path);
      return base === undefined ? false : walkValue(ev, base, terms, i, f, k, true);
    }
    if (node.rules.length || node.defaultRule) {
      if (node.kind === 'function') {
        // a function of no arguments is also a document: `f() := x` read as `f`
        if (node.arity !== 0) return false;
        const v = zeroArity(ev, node);
        return v === undefined ? false : walkValue(ev, v, terms, i, f, k);
      }
      if (i < terms.length && (node.kind === 'object' || node.kind === 'multi') && !ev.state.memo.has(node) && !hasMasksBelow(ev, node.path)) {
        // lookup of one key: evaluate only the rules that can produce it
        const op = terms[i];
        let key: Value | undefined;
        if (op.type === 'scalar') key = op.value;
        else if (op.type === 'var' && op.slot !== -1) key = f[op.slot!];
        if (key !== undefined) {
          const v = ev.partialLookup(node, key);
          return v === undefined ? false : walkValue(ev, v, terms, i + 1, f, k);
        }
      }
      const v = dataValue(ev, node);
      return v === undefined ? false : walkValue(ev, v, terms, i, f, k);
    }
    if (i === terms.length) {
      const v = dataValue(ev, node);
      return v === undefined ? false : k(v);
    }
    const op = terms[i];
    let key: Value | undefined;
    if (op.type === 'scalar') key = op.value;
    else if (op.type === 'var' && op.slot !== -1) key = f[op.slot!];
    if (key === undefined) {
      if (op.type === 'var' || ev.isPattern(op, f)) {
        // Enumerate the keys under ev node (child documents and base data) and follow the rest of the ref
        // into each: `data.rules[name].report` evaluates only `report` in each package, as OPA does.
        const n0 = node;
        const next = i + 1;
        const base = baseAt(ev, n0.path);
        const keys = new Map<string, RuleNode | null>();
        for (const [name, c] of n0.children) {
          if (!c.hasRules || (c.kind === 'function' && c.arity !== 0 && !c.children.size)) continue;
          keys.set(name, c);
        }
        const baseKeys: Value[] = [];
        if (base !== undefined) {
          iterateValue(base, (kk) => {
            if (typeof kk === 'string') {
              if (!keys.has(kk)) keys.set(kk, null);
            } else baseKeys.push(kk);
            return false;
          });
        }
        // OPA order: keys sorted
        const names = [...keys.keys()].sort(compareStrings);
        for (const name of names) {
          const c = keys.get(name);
          const stop = c
            ? ev.unifyTV(op, name, f, () => evalDataRef(ev, terms, next, c, f, k))
            : ev.unifyTV(op, name, f, () => walkValue(ev, indexValue(base!, name)!, terms, next, f, k, true));
          if (stop) return true;
        }
        for (const kk of baseKeys) {
          if (ev.unifyTV(op, kk, f, () => walkValue(ev, indexValue(base!, kk)!, terms, next, f, k, true))) return true;
        }
        return false;
      }
      const next = i + 1;
      const n0 = node;
      return ev.evalTerm(op, f, (kk) => {
        const c = typeof kk === 'string' ? n0.children.get(kk) : undefined;
        if (c) return evalDataRef(ev, terms, next, c, f, k);
        const base = baseAt(ev, n0.path);
        const x = base === undefined ? undefined : indexValue(base, kk);
        return x === undefined ? false : walkValue(ev, x, terms, next, f, k);
      });
    }
    if (typeof key === 'number') key = String(key);
    const c = typeof key === 'string' ? node.children.get(key) : undefined;
    if (c) {
      node = c;
      i++;
      continue;
    }
    const base = baseAt(ev, node.path);
    const x = base === undefined ? undefined : indexData(base, key);
    return x === undefined ? false : walkValue(ev, x, terms, i + 1, f, k, true);
  }
}

export function hasMasksBelow(ev: Ev, path: readonly string[]): boolean {
  const masks = ev.state.masks;
  if (!masks.length) return false;
  outer: for (const m of masks) {
    if (m.length <= path.length) continue;
    for (let j = 0; j < path.length; j++) if (m[j] !== path[j]) continue outer;
    return true;
  }
  return false;
}

/** Full value of the document at a node: rules, children and base data merged (memoised per state). */
export function dataValue(ev: Ev, node: RuleNode): Value | undefined {
  const memo = ev.state.memo.get(node);
  if (memo) return memo.v;
  let v: Value | undefined;
  if (masked(ev, node.path) || !node.hasRules) {
    v = baseAt(ev, node.path);
  } else {
    let own: Value | undefined;
    if ((node.rules.length || node.defaultRule) && node.kind !== 'function') own = ev.ruleValue(node);
    else if (node.kind === 'function' && node.arity === 0) own = zeroArity(ev, node);
    const entries: [Value, Value][] = [];
    let hasChildren = false;
    for (const c of node.children.values()) {
      if (!c.hasRules) continue;
      hasChildren = true;
      const cv = dataValue(ev, c);
      if (cv !== undefined) entries.push([c.name, cv]);
    }
    const base = baseAt(ev, node.path);
    if (!hasChildren && !node.isPackage) v = own !== undefined ? (base !== undefined ? mergeBase(own, base) : own) : base;
    else if (own !== undefined && !isObject(own)) v = own;
    else {
      // virtual documents merge (conflicting leaves are an error); base data wins over them
      let virt: Value;
      if (own === undefined) {
        // children only (the usual package node): one object, no pairwise merging
        const o: PlainObject = {};
        for (const [a, b] of entries) setOwn(o, a as string, b);
        virt = o;
      } else {
        const leaf = node.kind === 'object' ? Math.min(...node.rules.map((r) => r.dyn?.length ?? 0)) : Infinity;
        const childObj: PlainObject = {};
        for (const [a, b] of entries) setOwn(childObj, a as string, b);
        virt = mergeVirtual(own, childObj, node, 1, leaf);
      }
      v = base !== undefined ? mergeBase(virt, base) : virt;
    }
    if (v !== undefined && hasMasksBelow(ev, node.path)) {
      for (const m of ev.state.masks) {
        if (m.length > node.path.length && node.path.every((p, j) => m[j] === p)) {
          const sub = m.slice(node.path.length);
          const mv = baseAt(ev, m);
          if (mv !== undefined) v = upsert(v, sub, mv);
        }
      }
    }
  }
  ev.state.memo.set(node, v === undefined ? UNDEF : { v });
  return v;
}

/** Value of a function of no arguments read as a document (honours `with` replacing it). */
export function zeroArity(ev: Ev, node: RuleNode): Value | undefined {
  const name = 'data.' + node.path.join('.');
  const r = ev.callFunction(name, [], { type: 'call', op: { type: 'ref', terms: [], loc: node.rules[0].loc }, args: [], loc: node.rules[0].loc, name });
  return r instanceof Multi ? undefined : r;
}

/** Index into base data: number keys also find string keys (OPA stores data paths as strings). */
function indexData(v: Value, key: Value): Value | undefined {
  const x = indexValue(v, key);
  if (x !== undefined) return x;
  if (typeof key === 'number' && isObject(v)) return indexValue(v, String(key));
  if (typeof key === 'string' && Array.isArray(v) && /^(0|[1-9][0-9]*)$/.test(key)) return v[Number(key)];
  return undefined;
}

function mergeVirtual(a: Value, b: Value, node: RuleNode, depth = 1, leaf = Infinity): Value {
  if (isObject(a) && isObject(b)) {
    const m = new Map<string, [Value, Value]>();
    for (const [k, v] of objEntries(a)) m.set(hashKey(k), [k, v]);
    for (const [k, v] of objEntries(b)) {
      const h = hashKey(k);
      const prev = m.get(h);
      if (prev && depth >= leaf && !equals(prev[1], v)) {
        throw new RegoError('eval_conflict_error', 'object keys must be unique', (node.rules[0] ?? node.defaultRule)?.loc);
      }
      m.set(h, [k, prev ? mergeVirtual(prev[1], v, node, depth + 1, leaf) : v]);
    }
    return makeObject(m.values());
  }
  if (a instanceof RegoSet && b instanceof RegoSet) return new RegoSet([...a, ...b]);
  if (equals(a, b)) return a;
  throw new RegoError('eval_conflict_error', 'object keys must be unique', (node.rules[0] ?? node.defaultRule)?.loc);
}

function mergeBase(virt: Value, base: Value): Value {
  if (isObject(virt) && isObject(base)) {
    const m = new Map<string, [Value, Value]>();
    for (const [k, v] of objEntries(virt)) m.set(hashKey(k), [k, v]);
    for (const [k, v] of objEntries(base)) {
      const h = hashKey(k);
      const prev = m.get(h);
      m.set(h, [k, prev ? mergeBase(prev[1], v) : v]);
    }
    return makeObject(m.values());
  }
  return base;
}
