/**
 * Comprehension indexing (as OPA does it): a comprehension whose body depends on outer vars only through
 * equalities `local-expr == outer-var` is evaluated once per evaluation, grouped by the local side, and then
 * looked up by the outer values. This turns `[s | some s in xs; s.id == id]` inside a loop from O(n²) to O(n).
 */
import type { CompIndex, Expr, Rule, Term } from '../ast/types';
import { SafetyChecker, termVars } from './safety';
import { walkBody, walkTerm } from './walk';

type Comp = Extract<Term, { type: 'arraycomp' | 'setcomp' | 'objectcomp' }>;

function isComp(t: Term): t is Comp {
  return t.type === 'arraycomp' || t.type === 'setcomp' || t.type === 'objectcomp';
}

function varsOf(t: Term | Expr, isExpr = false): Set<number> {
  const out = new Set<number>();
  if (isExpr) {
    const e = t as Expr;
    walkBody([e], (x) => x.type === 'var' && x.slot !== undefined && x.slot >= 0 && out.add(x.slot));
  } else termVars(t as Term, out);
  return out;
}

function analyse(c: Comp, slotNames: string[]): CompIndex | undefined {
  const locals = new Set(c.locals ?? []);
  const all = varsOf(c);
  // vars used anywhere inside (including nested bodies) that are not locals of this comprehension
  const inner = new Set<number>();
  walkTerm(c, (x) => x.type === 'var' && x.slot !== undefined && x.slot >= 0 && inner.add(x.slot));
  const nestedLocals = new Set<number>();
  walkTerm(c, (x) => {
    if (x !== c && isComp(x)) for (const s of x.locals ?? []) nestedLocals.add(s);
  });
  const outerVars = [...inner].filter((s) => !locals.has(s) && !nestedLocals.has(s));
  if (outerVars.length === 0 || all.size === 0) return undefined;
  const keys: Term[] = [];
  const outer: Term[] = [];
  const rest: Expr[] = [];
  for (const e of c.body) {
    let pair: [Term, Term] | undefined;
    if (!e.negated && e.with.length === 0) {
      if (e.kind === 'unify') pair = [e.left, e.right];
      else if (e.kind === 'term' && e.term.type === 'call' && e.term.name === 'equal' && e.term.args.length === 2) pair = [e.term.args[0], e.term.args[1]];
    }
    if (pair) {
      const [a, b] = pair;
      // an outer var, or a ref with constant keys on one (`svc.spec.selector.app`): one value, or none, per lookup
      const isOuterVar = (t: Term) => t.type === 'var' && t.slot !== undefined && outerVars.includes(t.slot);
      const isOuter = (t: Term) =>
        isOuterVar(t) || (t.type === 'ref' && isOuterVar(t.terms[0]) && t.terms.slice(1).every((x) => x.type === 'scalar'));
      const onlyLocal = (t: Term) => [...varsOf(t)].every((s) => locals.has(s));
      if (isOuter(b) && onlyLocal(a) && varsOf(a).size > 0) {
        keys.push(a);
        outer.push(b);
        continue;
      }
      if (isOuter(a) && onlyLocal(b) && varsOf(b).size > 0) {
        keys.push(b);
        outer.push(a);
        continue;
      }
    }
    rest.push(e);
  }
  if (!keys.length) return undefined;
  // nested bodies would be re-ordered in place by the safety check below; keep those comprehensions unindexed
  let nested = false;
  for (const e of rest) {
    if (e.kind === 'every') nested = true;
    walkBody([e], (x) => {
      if (isComp(x)) nested = true;
    });
  }
  if (nested) return undefined;
  // every outer var must be used only in the key equalities
  const used = new Set<number>();
  for (const e of rest) for (const s of varsOf(e, true)) used.add(s);
  const head = c.type === 'objectcomp' ? [c.key, c.value] : [c.term];
  for (const h of head) walkTerm(h, (x) => x.type === 'var' && x.slot !== undefined && x.slot >= 0 && used.add(x.slot));
  if (outerVars.some((s) => used.has(s))) return undefined;
  // the reduced body must bind the key and head vars on its own
  const sc = new SafetyChecker(slotNames);
  const { body, safe } = sc.reorder(rest, new Set());
  if (sc.errors.length) return undefined;
  for (const t of [...keys, ...head]) for (const s of varsOf(t)) if (!safe.has(s)) return undefined;
  return { keys, outer, body };
}

/** Builtins whose result does not depend on the order of an array argument. */
// (sum and product are left out: float rounding depends on the order of the additions)
const ORDER_FREE = new Set(['count', 'max', 'min', 'sort', 'all', 'any', 'cast_set', 'internal.member_2']);

/** Annotates eligible comprehensions in the rules' bodies and heads. */
export function indexComprehensions(rules: Rule[]): void {
  for (const r of rules) {
    const slotNames = r.slotNames ?? [];
    const visit = (t: Term) => {
      if (t.type === 'call' && t.name && ORDER_FREE.has(t.name)) {
        for (const a of t.args) if (a.type === 'arraycomp') a.unordered = true;
      }
      if (isComp(t) && !t.index) {
        const idx = analyse(t, slotNames);
        if (idx) t.index = idx;
      }
    };
    walkBody(r.body, visit);
    for (const t of [...(r.dyn ?? []), r.head.key, r.head.value]) if (t) walkTerm(t, visit);
  }
}
