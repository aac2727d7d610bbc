/**
 * Terms that enumerate (the det() path of plan.ts handles the others) and comprehensions, including indexed ones
 * (evaluated once per state, grouped by their key terms).
 */
import type { ArrayCompTerm, ObjectCompTerm, SetCompTerm, Term } from '../ast/types';
import { RegoError } from '../errors';
import { RegoSet, Value, equals, hashKey, makeObject } from '../value';
import { Ev, Frame, KV, ND } from './core';

// ------------------------------------------------------------------ terms
export function evalTerm(ev: Ev, t: Term, f: Frame, k: KV): boolean {
  if (t.type === 'ref' || t.type === 'call' || t.type === 'object' || t.type === 'array' || t.type === 'set') {
    const v = ev.det(t, f);
    if (v !== ND) return v === undefined ? false : k(v);
  }
  return evalTermSlow(ev, t, f, k);
}

/** The enumerating part of evalTerm, apart so that the common det() path allocates no closure context. */
export function evalTermSlow(ev: Ev, t: Term, f: Frame, k: KV): boolean {
  switch (t.type) {
    case 'scalar':
      return k(t.value);
    case 'var': {
      if (t.slot === -1) {
        if (t.name === 'input') return ev.state.input === undefined ? false : k(ev.state.input);
        const d = ev.dataValue(ev.policy.root);
        return d === undefined ? false : k(d);
      }
      const v = f[t.slot!];
      return v === undefined ? false : k(v);
    }
    case 'ref':
      return ev.evalRef(t, f, k);
    case 'call':
      return ev.evalCall(t, f, k);
    case 'array':
      return evalItems(ev, t.items, 0, f, [], (vs) => k(vs));
    case 'set':
      return evalItems(ev, t.items, 0, f, [], (vs) => k(new RegoSet(vs)));
    case 'object': {
      const flat: Term[] = [];
      for (const [a, b] of t.items) flat.push(a, b);
      return evalItems(ev, flat, 0, f, [], (vs) => {
        const entries: [Value, Value][] = [];
        for (let i = 0; i < vs.length; i += 2) entries.push([vs[i], vs[i + 1]]);
        return k(makeObject(entries));
      });
    }
    case 'template':
      return k(ev.templateString(t, f));
    case 'arraycomp': {
      if (t.index) return evalIndexedComp(ev, t, f, k);
      const out: Value[] = [];
      const saved = ev.ordered;
      ev.ordered = !t.unordered;
      try {
        ev.evalBody(t.body, 0, f, () => evalTerm(ev, t.term, f, (v) => (out.push(v), false)));
      } finally {
        ev.ordered = saved;
      }
      return k(out);
    }
    case 'setcomp': {
      if (t.index) return evalIndexedComp(ev, t, f, k);
      const out = new RegoSet();
      const saved = ev.ordered;
      ev.ordered = false;
      try {
        ev.evalBody(t.body, 0, f, () => evalTerm(ev, t.term, f, (v) => (out.add(v), false)));
      } finally {
        ev.ordered = saved;
      }
      return k(out);
    }
    case 'objectcomp': {
      if (t.index) return evalIndexedComp(ev, t, f, k);
      const out = new Map<string, [Value, Value]>();
      const saved = ev.ordered;
      ev.ordered = false;
      try {
        ev.evalBody(t.body, 0, f, () =>
          evalTerm(ev, t.key, f, (kv) =>
            evalTerm(ev, t.value, f, (vv) => {
              const h = hashKey(kv);
              const prev = out.get(h);
              if (prev && !equals(prev[1], vv)) throw new RegoError('eval_conflict_error', 'object keys must be unique', t.loc);
              out.set(h, [kv, vv]);
              return false;
            }),
          ),
        );
      } finally {
        ev.ordered = saved;
      }
      return k(makeObject(out.values()));
    }
  }
}

/** Indexed comprehension: evaluated once per state, grouped by its key terms, looked up by the outer values. */
export function evalIndexedComp(ev: Ev, t: ArrayCompTerm | SetCompTerm | ObjectCompTerm, f: Frame, k: KV): boolean {
  const idx = t.index!;
  let groups = ev.state.comps.get(t);
  if (!groups) {
    const g = new Map<string, { arr?: Value[]; set?: RegoSet; obj?: Map<string, [Value, Value]>; conflict?: boolean }>();
    const saved = ev.ordered;
    ev.ordered = t.type === 'arraycomp' && !t.unordered;
    try {
      ev.evalBody(idx.body, 0, f, () =>
        evalItems(ev, idx.keys, 0, f, [], (keys) => {
          const h = keys.length === 1 ? hashKey(keys[0]) : hashKey(keys);
          let grp = g.get(h);
          if (!grp) g.set(h, (grp = {}));
          const entry = grp;
          if (t.type === 'arraycomp') return evalTerm(ev, t.term, f, (v) => ((entry.arr ??= []).push(v), false));
          if (t.type === 'setcomp') return evalTerm(ev, t.term, f, (v) => ((entry.set ??= new RegoSet()).add(v), false));
          return evalTerm(ev, t.key, f, (kv) =>
            evalTerm(ev, t.value, f, (vv) => {
              const m = (entry.obj ??= new Map());
              const hk = hashKey(kv);
              const prev = m.get(hk);
              if (prev && !equals(prev[1], vv)) entry.conflict = true;
              m.set(hk, [kv, vv]);
              return false;
            }),
          );
        }),
      );
    } finally {
      ev.ordered = saved;
    }
    groups = g;
    ev.state.comps.set(t, g);
  }
  // the outer side: bound vars, or refs with constant keys on them (`svc.spec.selector.app`); an undefined one
  // matches no element, so the comprehension is empty
  const outer: Value[] = new Array(idx.outer.length);
  let none = false;
  for (let i = 0; i < idx.outer.length; i++) {
    const v = ev.det(idx.outer[i], f);
    if (v === undefined) none = true;
    else if (v === ND) return evalItems(ev, idx.outer, 0, f, [], (o) => lookupGroup(ev, t, groups!, o, k));
    else outer[i] = v;
  }
  if (none) return lookupGroup(ev, t, groups, undefined, k);
  return lookupGroup(ev, t, groups, outer, k);
}

type Group = { arr?: Value[]; set?: RegoSet; obj?: Map<string, [Value, Value]>; conflict?: boolean };

/** The value of an indexed comprehension for one tuple of outer values (none: no element can match). */
function lookupGroup(ev: Ev, t: ArrayCompTerm | SetCompTerm | ObjectCompTerm, groups: Map<string, unknown>, outer: Value[] | undefined, k: KV): boolean {
  const h = outer === undefined ? undefined : outer.length === 1 ? hashKey(outer[0]) : hashKey(outer);
  const grp = h === undefined ? undefined : (groups as Map<string, Group>).get(h);
  if (t.type === 'arraycomp') return k(grp?.arr ?? []);
  if (t.type === 'setcomp') return k(grp?.set ?? new RegoSet());
  if (grp?.conflict) throw new RegoError('eval_conflict_error', 'object keys must be unique', t.loc);
  return k(grp?.obj ? makeObject(grp.obj.values()) : {});
}

export function evalItems(ev: Ev, items: Term[], i: number, f: Frame, acc: Value[], k: (vs: Value[]) => boolean): boolean {
  // fast path: scalars and bound vars need no continuation
  while (i < items.length) {
    const t = items[i];
    if (t.type === 'scalar') acc.push(t.value);
    else if (t.type === 'var' && t.slot !== undefined && t.slot >= 0) {
      const v = f[t.slot];
      if (v === undefined) return evalItemsDeferred(ev, items, f, k);
      acc.push(v);
    } else break;
    i++;
  }
  if (i === items.length) return k(acc); // acc is owned by ev call chain and not reused
  return evalTerm(ev, items[i], f, (v) => {
    const next = acc.slice();
    next.push(v);
    return evalItems(ev, items, i + 1, f, next, k);
  });
}

/** Items where a plain var is bound only by a later ref (`foo == xs[foo]`): refs/calls first. */
export function evalItemsDeferred(ev: Ev, items: Term[], f: Frame, k: (vs: Value[]) => boolean): boolean {
  const order: number[] = [];
  items.forEach((t, i) => t.type !== 'var' && t.type !== 'scalar' && order.push(i));
  items.forEach((t, i) => (t.type === 'var' || t.type === 'scalar') && order.push(i));
  const out: Value[] = new Array(items.length);
  const rec = (j: number): boolean => {
    if (j === order.length) return k(out.slice());
    const idx = order[j];
    return evalTerm(ev, items[idx], f, (v) => {
      out[idx] = v;
      return rec(j + 1);
    });
  };
  return rec(0);
}
