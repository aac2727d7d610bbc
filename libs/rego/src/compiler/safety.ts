/**
 * Safety: every var must be bound by some expression before it is used as an input. Bodies are reordered the
 * way OPA does it (stable: repeatedly take the first expression whose inputs are safe), and what cannot be
 * ordered is reported as rego_unsafe_var_error.
 */
import type { Expr, Term } from '../ast/types';
import { Location, RegoError } from '../errors';
import { walkExpr, walkTerm } from './walk';

type Slots = Set<number>;

function isLocal(t: Term): t is Term & { type: 'var'; slot: number } {
  return t.type === 'var' && typeof t.slot === 'number' && t.slot >= 0;
}

const closureCache = new WeakMap<object, Slots>();

/** Names of the vars the resolver generates (operands of negated expressions): never shown as unsafe. */
export const GENERATED = '_$local';

/** Every local var the term needs (closure vars of comprehensions included, their own locals excluded). */
export function termVars(t: Term, out: Slots): void {
  switch (t.type) {
    case 'var':
      if (isLocal(t)) out.add(t.slot);
      break;
    case 'ref':
      for (const x of t.terms) termVars(x, out);
      break;
    case 'array':
    case 'set':
      for (const x of t.items) termVars(x, out);
      break;
    case 'object':
      for (const [k, v] of t.items) {
        termVars(k, out);
        termVars(v, out);
      }
      break;
    case 'call':
      for (const x of t.args) termVars(x, out);
      break;
    case 'template':
      for (const x of t.parts) if (typeof x !== 'string') termVars(x, out);
      break;
    case 'arraycomp':
    case 'setcomp':
    case 'objectcomp': {
      // a comprehension's closure vars never change once resolved: computed once
      let closure = closureCache.get(t);
      if (!closure) {
        const inner: Slots = new Set();
        if (t.type === 'objectcomp') {
          termVars(t.key, inner);
          termVars(t.value, inner);
        } else termVars(t.term, inner);
        for (const e of t.body) exprVars(e, inner);
        const locals = new Set(t.locals ?? []);
        closure = new Set([...inner].filter((s) => !locals.has(s)));
        closureCache.set(t, closure);
      }
      for (const s of closure) out.add(s);
      break;
    }
    default:
      break;
  }
}

export function exprVars(e: Expr, out: Slots): void {
  switch (e.kind) {
    case 'term':
      termVars(e.term, out);
      break;
    case 'unify':
    case 'assign':
      termVars(e.left, out);
      termVars(e.right, out);
      break;
    case 'somein':
      if (e.key) termVars(e.key, out);
      termVars(e.value, out);
      termVars(e.collection, out);
      break;
    case 'every': {
      termVars(e.domain, out);
      let closure = closureCache.get(e);
      if (!closure) {
        const inner: Slots = new Set();
        for (const x of e.body) exprVars(x, inner);
        const locals = new Set(e.locals ?? []);
        closure = new Set([...inner].filter((s) => !locals.has(s)));
        closureCache.set(e, closure);
      }
      for (const s of closure) out.add(s);
      break;
    }
    case 'some':
      break;
  }
  for (const w of e.with) termVars(w.value, out);
}

/** Vars in ref operand positions: bound by iterating the collection. */
export function refOutputs(t: Term, out: Slots): void {
  switch (t.type) {
    case 'ref':
      for (let i = 0; i < t.terms.length; i++) {
        const x = t.terms[i];
        if (i > 0) termVars(x, out);
        else refOutputs(x, out);
      }
      for (let i = 1; i < t.terms.length; i++) refOutputs(t.terms[i], out);
      break;
    case 'array':
    case 'set':
      for (const x of t.items) refOutputs(x, out);
      break;
    case 'object':
      for (const [k, v] of t.items) {
        refOutputs(k, out);
        refOutputs(v, out);
      }
      break;
    case 'call':
      for (const x of t.args) refOutputs(x, out);
      break;
    default:
      break;
  }
}

function sameKey(a: Term, b: Term): boolean {
  if (a.type === 'scalar' && b.type === 'scalar') return a.value === b.value;
  if (a.type === 'var' && b.type === 'var') return a.slot === b.slot && a.name === b.name;
  return false;
}

function unifyOutputs(safe: Slots, a: Term, b: Term): Slots {
  const marked: Slots = new Set();
  const isSafe = (t: Term) => {
    const vs: Slots = new Set();
    termVars(t, vs);
    for (const v of vs) if (!safe.has(v) && !marked.has(v)) return false;
    return true;
  };
  let changed = true;
  const markAll = (t: Term) => {
    const vs: Slots = new Set();
    termVars(t, vs);
    for (const v of vs) {
      if (!safe.has(v) && !marked.has(v)) {
        marked.add(v);
        changed = true;
      }
    }
  };
  const visit = (x: Term, y: Term) => {
    if (isLocal(x) && !safe.has(x.slot) && !marked.has(x.slot)) {
      if (isSafe(y)) {
        marked.add(x.slot);
        changed = true;
      }
      return;
    }
    if (isLocal(y) && !safe.has(y.slot) && !marked.has(y.slot)) {
      if (isSafe(x)) {
        marked.add(y.slot);
        changed = true;
      }
      return;
    }
    if (x.type === 'array' && y.type === 'array' && x.items.length === y.items.length) {
      for (let i = 0; i < x.items.length; i++) visit(x.items[i], y.items[i]);
      return;
    }
    if (x.type === 'object' && y.type === 'object') {
      for (const [k, v] of x.items) {
        const m = y.items.find(([k2]) => sameKey(k, k2));
        if (m) visit(v, m[1]);
      }
      return;
    }
    const composite = (t: Term) => t.type === 'array' || t.type === 'object' || t.type === 'set';
    if (composite(x) && isSafe(y)) markAll(x);
    else if (composite(y) && isSafe(x)) markAll(y);
  };
  while (changed) {
    changed = false;
    visit(a, b);
  }
  return marked;
}

function exprOutputs(e: Expr, safe: Slots): Slots {
  const out: Slots = new Set();
  switch (e.kind) {
    case 'term': {
      refOutputs(e.term, out);
      const t = e.term;
      if (t.type === 'call' && t.arity !== undefined && t.args.length === t.arity + 1) {
        termVars(t.args[t.arity], out);
      }
      break;
    }
    case 'unify':
    case 'assign': {
      refOutputs(e.left, out);
      refOutputs(e.right, out);
      const s2 = new Set([...safe, ...out]);
      for (const v of unifyOutputs(s2, e.left, e.right)) out.add(v);
      break;
    }
    case 'somein':
      refOutputs(e.collection, out);
      if (e.key) termVars(e.key, out);
      termVars(e.value, out);
      break;
    default:
      break;
  }
  return out;
}

export class SafetyChecker {
  readonly errors: RegoError[] = [];
  constructor(private slotNames: string[]) {}

  /** One error per unsafe var, located at the var's first occurrence in `where` (as OPA does). */
  private report(slots: Iterable<number>, loc: Location, where?: Expr | Term[]) {
    const found = new Map<string, Location>();
    for (const s of slots) {
      const n0 = this.slotNames[s] ?? `$${s}`;
      const n = n0.startsWith('_$') ? '_' : n0;
      if (found.has(n)) continue;
      let at: Location | undefined;
      const visit = (t: Term) => {
        if (!at && t.type === 'var' && t.slot === s) at = t.loc;
      };
      if (Array.isArray(where)) for (const t of where) walkTerm(t, visit);
      else if (where) walkExpr(where, visit);
      found.set(n, at ?? loc);
    }
    for (const n of [...found.keys()].sort()) {
      this.errors.push(new RegoError('rego_unsafe_var_error', `var ${n} is unsafe`, found.get(n)));
    }
  }

  /** Reorders `body` given initially safe vars; returns the new body and the safe set after it. */
  reorder(body: Expr[], safe0: Slots): { body: Expr[]; safe: Slots } {
    const safe = new Set(safe0);
    const remaining = body.slice();
    const out: Expr[] = [];
    const varsOf = new Map<Expr, Slots>();
    for (const e of remaining) {
      const vs: Slots = new Set();
      exprVars(e, vs);
      varsOf.set(e, vs);
    }
    let progress = true;
    while (remaining.length && progress) {
      progress = false;
      for (let i = 0; i < remaining.length; i++) {
        const e = remaining[i];
        const vars = varsOf.get(e)!;
        if (vars.size === 0 || [...vars].every((v) => safe.has(v))) {
          // nothing to bind: keep it in place cheaply
          this.nested(e, safe);
          out.push(e);
          remaining.splice(i, 1);
          i--;
          progress = true;
          continue;
        }
        const outs = exprOutputs(e, safe);
        let ok = true;
        for (const v of vars) if (!safe.has(v) && !outs.has(v)) ok = false;
        if (!ok) continue;
        // nested bodies see the vars safe at this point (plus what this expression binds for with/every)
        this.nested(e, new Set([...safe, ...(e.negated ? [] : [])]));
        if (!e.negated) for (const v of outs) safe.add(v);
        out.push(e);
        remaining.splice(i, 1);
        i--;
        progress = true;
      }
    }
    if (remaining.length) {
      // As OPA: the unsafe vars of the expressions that could not be ordered, leaving out the compiler's own
      // generated vars (operands bound outside a negation); if only those are unsafe, "expression is unsafe".
      const found: Array<[Expr, number[]]> = [];
      for (const e of remaining) {
        const vars: Slots = new Set();
        exprVars(e, vars);
        const outs = exprOutputs(e, safe);
        const bad = [...vars].filter((v) => !safe.has(v) && !outs.has(v));
        if (bad.length) found.push([e, bad]);
      }
      const generated = (s: number) => (this.slotNames[s] ?? '').startsWith(GENERATED);
      const userVars = found.some(([, bad]) => bad.some((s) => !generated(s)));
      for (const [e, bad] of found) {
        if (userVars) {
          const named = bad.filter((s) => !generated(s));
          if (named.length) this.report(named, e.loc, e);
        } else this.errors.push(new RegoError('rego_unsafe_var_error', 'expression is unsafe', e.loc));
      }
      out.push(...remaining);
    }
    return { body: out, safe };
  }

  /** Reorders the bodies nested in an expression's terms (comprehensions, every). */
  private nested(e: Expr, safe: Slots): void {
    const visitTerm = (t: Term) => this.nestedTerm(t, safe);
    switch (e.kind) {
      case 'term':
        visitTerm(e.term);
        break;
      case 'unify':
      case 'assign':
        visitTerm(e.left);
        visitTerm(e.right);
        break;
      case 'somein':
        visitTerm(e.collection);
        break;
      case 'every': {
        visitTerm(e.domain);
        const s = new Set(safe);
        if (e.key?.slot !== undefined) s.add(e.key.slot);
        if (e.value.slot !== undefined) s.add(e.value.slot);
        const r = this.reorder(e.body, s);
        e.body = r.body;
        break;
      }
      default:
        break;
    }
    for (const w of e.with) visitTerm(w.value);
  }

  private nestedTerm(t: Term, safe: Slots): void {
    switch (t.type) {
      case 'ref':
        for (const x of t.terms) this.nestedTerm(x, safe);
        break;
      case 'array':
      case 'set':
        for (const x of t.items) this.nestedTerm(x, safe);
        break;
      case 'object':
        for (const [k, v] of t.items) {
          this.nestedTerm(k, safe);
          this.nestedTerm(v, safe);
        }
        break;
      case 'call':
        for (const x of t.args) this.nestedTerm(x, safe);
        break;
      case 'template':
        for (const x of t.parts) if (typeof x !== 'string') this.nestedTerm(x, safe);
        break;
      case 'arraycomp':
      case 'setcomp':
      case 'objectcomp': {
        const r = this.reorder(t.body, safe);
        t.body = r.body;
        const head: Slots = new Set();
        if (t.type === 'objectcomp') {
          termVars(t.key, head);
          termVars(t.value, head);
          this.nestedTerm(t.key, r.safe);
          this.nestedTerm(t.value, r.safe);
        } else {
          termVars(t.term, head);
          this.nestedTerm(t.term, r.safe);
        }
        const bad = [...head].filter((v) => !r.safe.has(v));
        if (bad.length) this.report(bad, t.loc);
        break;
      }
      default:
        break;
    }
  }

  /** Checks a rule's head vars after its body. */
  checkHead(terms: Term[], safe: Slots, loc: Location): void {
    const vs: Slots = new Set();
    for (const t of terms) termVars(t, vs);
    safe = new Set(safe);
    for (const t of terms) refOutputs(t, safe);
    const bad = [...vs].filter((v) => !safe.has(v));
    if (bad.length) this.report(bad, loc, terms);
    for (const t of terms) this.nestedTerm(t, safe);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Closure-local variables

type Closure = Extract<Term, { type: 'arraycomp' | 'setcomp' | 'objectcomp' }> | Extract<Expr, { kind: 'every' }>;

/** Vars of a term outside any closure (comprehension or `every` body). */
function directTermVars(t: Term, out: Slots): void {
  switch (t.type) {
    case 'var':
      if (isLocal(t)) out.add(t.slot);
      break;
    case 'ref':
      for (const x of t.terms) directTermVars(x, out);
      break;
    case 'array':
    case 'set':
      for (const x of t.items) directTermVars(x, out);
      break;
    case 'object':
      for (const [k, v] of t.items) {
        directTermVars(k, out);
        directTermVars(v, out);
      }
      break;
    case 'call':
      for (const x of t.args) directTermVars(x, out);
      break;
    case 'template':
      for (const x of t.parts) if (typeof x !== 'string') directTermVars(x, out);
      break;
    default:
      break;
  }
}

/** The terms an expression evaluates directly (a `some x` declaration binds nothing by itself). */
function exprTerms(e: Expr): Term[] {
  const ts: Term[] = e.with.map((w) => w.value);
  switch (e.kind) {
    case 'term':
      ts.push(e.term);
      break;
    case 'unify':
    case 'assign':
      ts.push(e.left, e.right);
      break;
    case 'somein':
      if (e.key) ts.push(e.key);
      ts.push(e.value, e.collection);
      break;
    case 'every':
      ts.push(e.domain);
      break;
    default:
      break;
  }
  return ts;
}

/** Closures directly inside a term (not those nested in other closures). */
function termClosures(t: Term, f: (c: Closure) => void): void {
  switch (t.type) {
    case 'arraycomp':
    case 'setcomp':
    case 'objectcomp':
      f(t);
      break;
    case 'ref':
      for (const x of t.terms) termClosures(x, f);
      break;
    case 'array':
    case 'set':
      for (const x of t.items) termClosures(x, f);
      break;
    case 'object':
      for (const [k, v] of t.items) {
        termClosures(k, f);
        termClosures(v, f);
      }
      break;
    case 'call':
      for (const x of t.args) termClosures(x, f);
      break;
    case 'template':
      for (const x of t.parts) if (typeof x !== 'string') termClosures(x, f);
      break;
    default:
      break;
  }
}

/**
 * OPA's compiler requires a closure (comprehension, `every`) to find a variable it shares with the enclosing
 * body bound there only when the enclosing body uses that variable outside closures; a variable that occurs
 * nowhere else (say declared with `some x` and then only used inside `[y | y := xs[x]]`) is the closure's own,
 * bound by it on each evaluation. This marks such variables as locals of the closure that uses them directly,
 * before safety and comprehension indexing look at closures. `visible`: vars bound around the body (function
 * arguments, enclosing bodies).
 */
export function localizeClosureVars(body: Expr[], visible: Slots, extra: Term[] = []): void {
  const bodyVars = new Set(visible);
  for (const e of body) for (const t of exprTerms(e)) directTermVars(t, bodyVars);
  for (const t of extra) directTermVars(t, bodyVars);
  const visit = (c: Closure) => localizeIn(c, bodyVars);
  for (const e of body) {
    if (e.kind === 'every') visit(e);
    for (const t of exprTerms(e)) termClosures(t, visit);
  }
  for (const t of extra) termClosures(t, visit);
}

function localizeIn(c: Closure, visible: Slots): void {
  const locals = (c.locals ??= []);
  const own = new Set(locals);
  const direct: Slots = new Set();
  const heads: Term[] = 'kind' in c ? [] : c.type === 'objectcomp' ? [c.key, c.value] : [c.term];
  for (const t of heads) directTermVars(t, direct);
  for (const e of c.body) for (const t of exprTerms(e)) directTermVars(t, direct);
  for (const s of direct) {
    if (!own.has(s) && !visible.has(s)) {
      locals.push(s);
      own.add(s);
    }
  }
  localizeClosureVars(c.body, new Set([...visible, ...own]), heads);
}
