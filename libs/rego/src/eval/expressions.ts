/** Expressions: negation, `with` scopes, `some ... in`, `every`, and the generic dispatch by expression kind. */
import type { Expr, With } from '../ast/types';
import { Value } from '../value';
import { BigDec } from '../decimal';
import { iterateValue, upsert } from './values';
import { Ev, Frame, K, State } from './core';
import { scopedState } from './state';

export function evalExpr(ev: Ev, e: Expr, f: Frame, k: K): boolean {
  ev.tick();
  if (e.with.length) return evalWith(ev, e, f, k);
  if (e.negated) return evalNot(ev, e, f, k);
  return evalExprInner(ev, e, f, k);
}

/** `some k, v in coll` over one collection value. */
export function someIn(ev: Ev, e: Expr & { kind: 'somein' }, coll: Value, f: Frame, k: K): boolean {
  const vt = e.value;
  const kt = e.key;
  const vs = vt.type === 'var' && vt.slot !== -1 && f[vt.slot!] === undefined ? vt.slot! : -1;
  const ks = !kt ? -2 : kt.type === 'var' && kt.slot !== -1 && f[kt.slot!] === undefined && kt.slot !== vs ? kt.slot! : -1;
  if (vs >= 0 && ks !== -1) {
    // common case `some k, v in xs` with fresh vars: bind the slots directly
    try {
      return iterateValue(coll, (key, val) => {
        ev.tick();
        f[vs] = val;
        if (ks >= 0) f[ks] = key;
        return k();
      }, ev.ordered);
    } finally {
      f[vs] = undefined;
      if (ks >= 0) f[ks] = undefined;
    }
  }
  return iterateValue(coll, (key, val) => (ev.tick(), ev.unifyTV(vt, val, f, kt ? () => ev.unifyTV(kt, key, f, k) : k)), ev.ordered);
}

export function evalNot(ev: Ev, e: Expr, f: Frame, k: K): boolean {
  let found = false;
  evalExprInner(ev, e, f, () => (found = true));
  return found ? false : k();
}

export function evalExprInner(ev: Ev, e: Expr, f: Frame, k: K): boolean {
  switch (e.kind) {
    case 'term': {
      const t = e.term;
      if (t.type === 'call') return ev.evalCall(t, f, (v) => (v === false ? false : k()));
      return ev.evalTerm(t, f, (v) => (v === false ? false : k()));
    }
    case 'unify':
    case 'assign':
      return ev.unifyTerms(e.left, e.right, f, k);
    case 'some':
      return k();
    case 'somein':
      return ev.evalTerm(e.collection, f, (coll) => someIn(ev, e, coll, f, k));
    case 'every':
      return ev.evalTerm(e.domain, f, (dom) => {
        if (typeof dom !== 'object' || dom === null || dom instanceof BigDec) return false;
        const ks = e.key?.slot;
        const vs = e.value.slot!;
        const failed = iterateValue(dom, (key, val) => {
          if (ks !== undefined) f[ks] = key;
          f[vs] = val;
          let ok = false;
          try {
            ev.evalBody(e.body, 0, f, () => (ok = true));
          } finally {
            if (ks !== undefined) f[ks] = undefined;
            f[vs] = undefined;
          }
          return !ok;
        }, false);
        return failed ? false : k();
      });
  }
}

export function evalWith(ev: Ev, e: Expr, f: Frame, k: K): boolean {
  // evaluate the replacement values first (in the current state)
  const vals: (Value | undefined)[] = [];
  for (const w of e.with) {
    if (w.kind === 'func' && w.valueFunc) {
      vals.push(undefined);
      continue;
    }
    let got: Value | undefined;
    ev.evalTerm(w.value, f, (v) => {
      got = v;
      return true;
    });
    if (got === undefined) return false;
    vals.push(got);
  }
  const outer = ev.state;
  const ns: State = scopedState(outer);
  e.with.forEach((w: With, i) => {
    const v = vals[i];
    if (w.kind === 'input') {
      ns.input = w.path!.length === 0 ? v : upsert(ns.input, w.path!, v!);
    } else if (w.kind === 'data') {
      ns.data = upsert(ns.data, w.path!, v!);
      ns.masks = [...ns.masks, w.path!];
    } else {
      ns.funcs = new Map(ns.funcs ?? []);
      ns.funcs.set(w.funcName!, w.valueFunc ? { func: w.valueFunc } : { value: v });
    }
  });
  const plain: Expr = { ...e, with: [] };
  ev.state = ns;
  try {
    return evalExpr(ev, plain, f, () => {
      const inner = ev.state;
      ev.state = outer;
      try {
        return k();
      } finally {
        ev.state = inner;
      }
    });
  } finally {
    ev.state = outer;
  }
}
