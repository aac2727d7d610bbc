/**
 * Plan compilation: each body becomes a chain of steps and each term a `det()` closure, built once and kept on
 * the AST node (non-enumerable), so iterations do not re-interpret the tree. Runs of expressions that need no
 * enumeration are evaluated in a loop; comparisons and `+ - *` run inline unless `with` or a custom builtin
 * replaces them; terms without local variables are computed once per state.
 */
import type { CallTerm, Expr, Term } from '../ast/types';
import type { CompiledPolicy } from '../compiler/policy';
import { BUILTINS } from '../builtins/registry';
import { PlainObject, RegoSet, Value, equals, makeObject, compare, compareStrings } from '../value';
import { indexString, indexValue, iterateValue } from './values';
import { Num, add as numAdd, mul as numMul, sub as numSub } from '../number';
import { Det, Ev, FAIL, Frame, K, Multi, ND, ND_EXPR, OK, UNDEF } from './core';

type DetFn = (ev: Ev, f: Frame) => Det;
/**
 * det() compiled per term, kept on the term itself under a symbol (a WeakMap lookup per evaluated term cost as
 * much as the evaluation it saved); terms belong to one compiled policy.
 */
const DET = Symbol('det');
type DetCached = { [DET]?: DetFn };
type Step = (ev: Ev, f: Frame, k: () => boolean) => boolean;
const STEPS = Symbol('steps');
type StepsCached = { [STEPS]?: Step[] };
/** `next` as a continuation; made apart so that callers' frames need no context for captured variables. */
function stepThen(next: Step, ev: Ev, f: Frame, k: () => boolean): () => boolean {
  return () => next(ev, f, k);
}
function cacheSteps(body: Expr[], steps: Step[]): Step[] {
  Object.defineProperty(body, STEPS, { value: steps, writable: true, configurable: true, enumerable: false });
  return steps;
}
type TryFn = (ev: Ev, f: Frame) => number;
const TRY = Symbol('tryDet');
type TryCached = { [TRY]?: TryFn };
function cacheTry(e: Expr, fn: TryFn): TryFn {
  Object.defineProperty(e, TRY, { value: fn, writable: true, configurable: true, enumerable: false });
  return fn;
}
function cacheDet(t: Term, fn: DetFn): DetFn {
  // not enumerable: the AST stays as it was for anyone walking or comparing it
  Object.defineProperty(t, DET, { value: fn, writable: true, configurable: true, enumerable: false });
  return fn;
}

// ------------------------------------------------------------------ bodies and expressions
export function evalBody(ev: Ev, body: Expr[], i: number, f: Frame, k: K): boolean {
  const steps = (body as StepsCached)[STEPS] ?? cacheSteps(body, compileBody(body, ev.policy));
  return steps[i](ev, f, k);
}

/**
 * A body as a chain of steps, built once per body: steps[i] evaluates expression i, then steps[i + 1] (for each
 * solution), and steps[n] calls the continuation. Deterministic expressions (filters, assignments of single
 * values) are evaluated directly; the slot one binds is cleared when the rest of the body has been enumerated.
 * `some x in xs` over a collection that needs no enumeration binds its slots itself.
 */
export function compileBody(body: Expr[], policy: CompiledPolicy): Step[] {
  const n = body.length;
  const steps: Step[] = new Array(n + 1);
  steps[n] = (_ev, _f, k) => k();
  const runnable = (e: Expr) => !e.with.length && e.kind !== 'somein' && e.kind !== 'every';
  let runEnd = n;
  for (let i = n - 1; i >= 0; i--) {
    if (!runnable(body[i])) {
      steps[i] = compileStep(body[i], steps[i + 1], i + 1 === n, policy);
      runEnd = i;
    } else {
      steps[i] = compileRun(body, i, runEnd, steps, policy);
    }
  }
  return steps;
}

/**
 * Expressions from..end-1, none of which iterates by its kind: evaluated in a loop (no stack frame per
 * expression). One that turns out to enumerate (a ref with an unbound key, say) is evaluated generically, with
 * the rest of the body as its continuation. The slots bound here are cleared once the rest has been enumerated.
 */
export function compileRun(body: Expr[], from: number, end: number, steps: Step[], policy: CompiledPolicy): Step {
  const n = body.length;
  const tries: TryFn[] = [];
  for (let j = from; j < end; j++) tries.push((body[j] as TryCached)[TRY] ?? cacheTry(body[j], compileTry(body[j], policy)));
  const count = end - from;
  return (ev, f, k) => {
    let first = -1; // the first slot bound here, then any others (most runs bind at most one)
    let bound: number[] | null = null;
    try {
      let j = 0;
      for (; j < count; j++) {
        const r = tries[j](ev, f);
        if (r === ND_EXPR) break;
        ev.tick();
        if (r === FAIL) return false;
        if (r >= 0) {
          if (first < 0) first = r;
          else (bound ??= []).push(r);
        }
      }
      if (j === count) return steps[end](ev, f, k);
      const at = from + j;
      return ev.evalExpr(body[at], f, at + 1 === n ? k : stepThen(steps[at + 1], ev, f, k));
    } finally {
      if (first >= 0) f[first] = undefined;
      if (bound) for (const s of bound) f[s] = undefined;
    }
  };
}

export function compileStep(e: Expr, next: Step, last: boolean, policy: CompiledPolicy): Step {
  // continuation for the generic path (a closure per enumerating expression evaluated, as evalExpr needs one)
  const rest = last ? (_ev: Ev, _f: Frame, k: K): K => k : (ev: Ev, f: Frame, k: K): K => stepThen(next, ev, f, k);
  if (e.with.length) return (ev, f, k) => ev.evalExpr(e, f, rest(ev, f, k));
  if (e.kind === 'somein' && !e.negated) {
    const vt = e.value;
    const kt = e.key;
    const coll = e.collection;
    return (ev, f, k) => {
      ev.tick(); // as evalExpr
      const c = det(ev, coll, f);
      if (c === ND) return ev.evalExprInner(e, f, rest(ev, f, k));
      if (c === undefined) return false;
      const vs = vt.type === 'var' && vt.slot !== -1 && vt.slot !== undefined && f[vt.slot] === undefined ? vt.slot : -1;
      const ks = !kt ? -2 : kt.type === 'var' && kt.slot !== -1 && kt.slot !== undefined && f[kt.slot] === undefined && kt.slot !== vs ? kt.slot : -1;
      if (vs < 0 || ks === -1) return ev.someIn(e, c, f, rest(ev, f, k));
      try {
        return iterateValue(
          c,
          (key, val) => {
            ev.tick();
            f[vs] = val;
            if (ks >= 0) f[ks] = key;
            return next(ev, f, k);
          },
          ev.ordered,
        );
      } finally {
        f[vs] = undefined;
        if (ks >= 0) f[ks] = undefined;
      }
    };
  }
  const tryDet = (e as TryCached)[TRY] ?? cacheTry(e, compileTry(e, policy));
  return (ev, f, k) => {
    const r = tryDet(ev, f);
    if (r === ND_EXPR) return ev.evalExpr(e, f, rest(ev, f, k));
    ev.tick();
    if (r === FAIL) return false;
    if (r < 0) return next(ev, f, k);
    try {
      return next(ev, f, k);
    } finally {
      f[r] = undefined;
    }
  };
}

/** Evaluates an expression without iteration if possible: FAIL, OK (-1), a newly bound slot, or ND_EXPR. */
export function tryDet(ev: Ev, e: Expr, f: Frame): number {
  const fn = (e as TryCached)[TRY] ?? cacheTry(e, compileTry(e, ev.policy));
  return fn(ev, f);
}

/** tryDet specialised per expression: filters (`x.y == "z"`) and `v := <term>` skip the generic dispatch. */
export function compileTry(e: Expr, policy: CompiledPolicy): TryFn {
  const generic: TryFn = (ev, f) => tryDetSlow(ev, e, f);
  const sub = (x: Term): DetFn => (x as DetCached)[DET] ?? cacheDet(x, compileDet(x, policy));
  if (e.kind === 'term') {
    const T = sub(e.term);
    const negated = !!e.negated;
    return (ev, f) => {
      const v = T(ev, f);
      if (v === ND) return ND_EXPR;
      return (v !== undefined && v !== false) !== negated ? OK : FAIL;
    };
  }
  if ((e.kind === 'assign' || e.kind === 'unify') && !e.negated && e.left.type === 'var' && e.left.slot !== undefined && e.left.slot !== -1) {
    const ls = e.left.slot;
    const R = sub(e.right);
    return (ev, f) => {
      if (f[ls] !== undefined) return tryDetSlow(ev, e, f);
      const v = R(ev, f);
      if (v === ND) return ND_EXPR;
      if (v === undefined) return FAIL;
      f[ls] = v;
      return ls;
    };
  }
  return generic;
}

export function tryDetSlow(ev: Ev, e: Expr, f: Frame): number {
  switch (e.kind) {
    case 'term': {
      const v = det(ev, e.term, f);
      if (v === ND) return ND_EXPR;
      const ok = v !== undefined && v !== false;
      return ok !== e.negated ? OK : FAIL;
    }
    case 'unify':
    case 'assign': {
      if (e.negated) return ND_EXPR;
      const l = e.left;
      const r = e.right;
      if (l.type === 'var' && l.slot !== -1 && f[l.slot!] === undefined) {
        const v = det(ev, r, f);
        if (v === ND) return ND_EXPR;
        if (v === undefined) return FAIL;
        f[l.slot!] = v;
        return l.slot!;
      }
      if (r.type === 'var' && r.slot !== -1 && f[r.slot!] === undefined) {
        const v = det(ev, l, f);
        if (v === ND) return ND_EXPR;
        if (v === undefined) return FAIL;
        f[r.slot!] = v;
        return r.slot!;
      }
      if (ev.isPattern(l, f) || ev.isPattern(r, f)) return ND_EXPR;
      const a = det(ev, l, f);
      if (a === ND) return ND_EXPR;
      if (a === undefined) return FAIL;
      const b = det(ev, r, f);
      if (b === ND) return ND_EXPR;
      if (b === undefined) return FAIL;
      return equals(a, b) ? OK : FAIL;
    }
    case 'some':
      return OK;
    default:
      return ND_EXPR;
  }
}

/** Value of a term that needs no enumeration: the value, undefined (no value) or ND (enumerate instead). */
export function det(ev: Ev, t: Term, f: Frame): Value | undefined | typeof ND {
  const fn = (t as DetCached)[DET] ?? cacheDet(t, compileDet(t, ev.policy));
  return fn(ev, f);
}

/**
 * det() specialised per term, once: the common terms (locals, refs with constant or bound keys, calls, object
 * literals) become closures over their sub-terms' closures, so evaluating `s.slot.status == "COMPLETE"` walks no
 * AST and dispatches on no term type. Anything else goes through detSlow.
 */
export function compileDet(t: Term, policy: CompiledPolicy): DetFn {
  const sub = (x: Term): DetFn => (x as DetCached)[DET] ?? cacheDet(x, compileDet(x, policy));
  const slow: DetFn = (ev, f) => detSlow(ev, t, f);
  switch (t.type) {
    case 'scalar': {
      const v = t.value;
      return () => v;
    }
    case 'var': {
      if (t.slot === -1) return t.name === 'input' ? (ev) => ev.state.input : () => ND;
      if (t.slot === undefined) return slow;
      const s = t.slot;
      return (_ev, f) => {
        const v = f[s];
        return v === undefined ? ND : v;
      };
    }
    case 'ref': {
      const head = t.terms[0];
      if (head.type === 'var' && head.slot === -1 && head.name === 'data') {
        // a ref with constant operands only (`data.policy.max_age_days`) has one value per state
        if (!t.terms.every((x, i) => i === 0 || x.type === 'scalar')) return slow;
        return (ev, f) => {
          const state = ev.state;
          const hit = state.closed.get(t);
          if (hit) return hit.v;
          const v = detSlow(ev, t, f);
          if (v !== ND) state.closed.set(t, v === undefined ? UNDEF : { v });
          return v;
        };
      }
      if (head.type !== 'var' || head.slot === undefined) return slow;
      const ops = t.terms.slice(1);
      if (!ops.every((op) => op.type === 'scalar' || (op.type === 'var' && op.slot !== -1 && op.slot !== undefined))) return slow;
      const hs = head.slot;
      // per operand: a frame slot (>= 0) or -1 for a constant key
      const slots = ops.map((op) => (op.type === 'var' ? op.slot! : -1));
      const keys = ops.map((op) => (op.type === 'scalar' ? op.value : null));
      const n = ops.length;
      if (n === 1 && typeof keys[0] === 'string') {
        const k0 = keys[0];
        if (hs === -1) return (ev) => (ev.state.input === undefined ? undefined : indexString(ev.state.input, k0));
        return (_ev, f) => {
          const v = f[hs];
          return v === undefined ? ND : indexString(v, k0);
        };
      }
      if (n === 2 && typeof keys[0] === 'string' && typeof keys[1] === 'string' && hs !== -1) {
        const k0 = keys[0];
        const k1 = keys[1];
        return (_ev, f) => {
          const v = f[hs];
          if (v === undefined) return ND;
          const w = indexString(v, k0);
          return w === undefined ? undefined : indexString(w, k1);
        };
      }
      return (ev, f) => {
        let v: Value | undefined;
        if (hs === -1) v = ev.state.input;
        else {
          v = f[hs];
          if (v === undefined) return ND;
        }
        for (let i = 0; i < n; i++) {
          const s = slots[i];
          let key: Value | undefined;
          if (s === -1) key = keys[i] as Value;
          else {
            key = f[s];
            if (key === undefined) return ND;
          }
          if (v === undefined) return undefined;
          v = indexValue(v, key);
        }
        return v;
      };
    }
    case 'call': {
      if (t.constValue !== undefined) {
        const c = t.constValue;
        return () => c;
      }
      const info = callInfo(t, policy);
      if (info.enumerates) return () => ND;
      const argFns = t.args.map(sub);
      const n = argFns.length;
      const name = t.name!;
      const closed = info.closed;
      const op = info.op;
      const fnNode = policy.funcs.get(name);
      const general: DetFn = (ev, f) => {
        const args: Value[] = new Array(n);
        let undef = false;
        for (let i = 0; i < n; i++) {
          const a = argFns[i](ev, f);
          if (a === ND) return ND;
          if (a === undefined) undef = true;
          else args[i] = a;
        }
        if (undef) return undefined;
        // a user function no `with` replaces: straight to its memo
        if (fnNode !== undefined && ev.state.funcs === null) return ev.callUserFunction(fnNode, args);
        const r = ev.callFunction(name, args, t);
        return r instanceof Multi ? ND : r;
      };
      const A = argFns[0];
      const B = argFns[1];
      const inline: DetFn = (ev, f) => {
        if (ev.state.funcs !== null || ev.impls !== undefined) return general(ev, f);
        // comparisons and arithmetic inline: no argument array, no builtin dispatch
        const a = A(ev, f);
        if (a === ND) return ND;
        const b = B(ev, f);
        if (b === ND) return ND;
        if (a === undefined || b === undefined) return undefined;
        const r = inlineOp(op, a, b);
        if (r !== undefined) return r;
        const x = ev.callFunction(name, [a, b], t);
        return x instanceof Multi ? ND : x;
      };
      const compute = op !== 0 ? inline : general;
      if (!closed) return compute;
      return (ev, f) => {
        // per-evaluation implementations may keep state: no merging of their calls
        if (ev.impls !== undefined) return compute(ev, f);
        const state = ev.state;
        const hit = state.closed.get(t);
        if (hit) return hit.v;
        const r = compute(ev, f);
        if (r !== ND) state.closed.set(t, r === undefined ? UNDEF : { v: r });
        return r;
      };
    }
    case 'object': {
      const c = constOf(t);
      if (c !== undefined) return () => c;
      // the common literal: constant string keys (`{"trail": id, "slot": slot}`), built directly
      if (!t.items.every(([k]) => k.type === 'scalar' && typeof k.value === 'string' && k.value !== '__proto__')) return slow;
      const keys = t.items.map(([k]) => (k as { value: string }).value);
      const vals = t.items.map(([, v]) => sub(v));
      const n = keys.length;
      return (ev, f) => {
        const o: PlainObject = {};
        let undef = false;
        for (let i = 0; i < n; i++) {
          const v = vals[i](ev, f);
          if (v === ND) return ND;
          if (v === undefined) undef = true;
          else o[keys[i]] = v;
        }
        return undef ? undefined : o;
      };
    }
    default:
      return slow;
  }
}

/** det() for the terms compileDet leaves generic: data refs with variable keys, arrays, sets, templates, ... */
export function detSlow(ev: Ev, t: Term, f: Frame): Value | undefined | typeof ND {
  switch (t.type) {
    case 'scalar':
      return t.value;
    case 'var': {
      if (t.slot === -1) return t.name === 'input' ? ev.state.input : ND;
      const v = f[t.slot!];
      return v === undefined ? ND : v;
    }
    case 'ref': {
      const terms = t.terms;
      const head = terms[0];
      let v: Value | undefined;
      if (head.type === 'var') {
        if (head.slot === -1) {
          if (head.name === 'data') {
            for (let i = 1; i < terms.length; i++) {
              const op = terms[i];
              if (op.type === 'scalar') continue;
              if (op.type === 'var' && op.slot !== -1 && f[op.slot!] !== undefined) continue;
              return ND;
            }
            let out: Value | undefined;
            ev.evalDataRef(terms, 1, ev.policy.root, f, (x) => ((out = x), true));
            return out;
          }
          v = ev.state.input;
        } else {
          v = f[head.slot!];
          if (v === undefined) return ND;
        }
      } else {
        const h = det(ev, head, f);
        if (h === ND) return ND;
        v = h;
      }
      for (let i = 1; i < terms.length; i++) {
        const op = terms[i];
        let key: Value | undefined;
        if (op.type === 'scalar') key = op.value;
        else if (op.type === 'var' && op.slot !== -1) {
          key = f[op.slot!];
          if (key === undefined) return ND;
        } else {
          if (ev.isPattern(op, f)) return ND;
          const kv = det(ev, op, f);
          if (kv === ND) return ND;
          key = kv;
        }
        if (v === undefined || key === undefined) return undefined;
        v = indexValue(v, key);
      }
      return v;
    }
    case 'array': {
      const c = constOf(t);
      if (c !== undefined) return c;
      const out: Value[] = new Array(t.items.length);
      let undef = false;
      for (let i = 0; i < t.items.length; i++) {
        const a = det(ev, t.items[i], f);
        if (a === ND) return ND;
        if (a === undefined) undef = true;
        else out[i] = a;
      }
      return undef ? undefined : out;
    }
    case 'set': {
      const c = constOf(t);
      if (c !== undefined) return c;
      const out = new RegoSet();
      for (const it of t.items) {
        const v = det(ev, it, f);
        if (v === ND) return ND;
        if (v === undefined) return undefined;
        out.add(v);
      }
      return out;
    }
    case 'object': {
      const c = constOf(t);
      if (c !== undefined) return c;
      // plain objects with string keys are built directly (the common case: `{"id": id, "slot": slot}`)
      let o: PlainObject | null = {};
      let entries: [Value, Value][] | null = null;
      let undef = false;
      for (const [kt, vt] of t.items) {
        const kv = det(ev, kt, f);
        if (kv === ND) return ND;
        const vv = det(ev, vt, f);
        if (vv === ND) return ND;
        if (kv === undefined || vv === undefined) {
          undef = true;
          continue;
        }
        if (o && typeof kv === 'string' && kv !== '__proto__') o[kv] = vv;
        else {
          if (!entries) entries = o ? Object.entries(o) : [];
          o = null;
          entries.push([kv, vv]);
        }
      }
      if (undef) return undefined;
      return o ?? makeObject(entries!);
    }
    case 'template':
      return ev.templateString(t, f);
    case 'arraycomp':
    case 'setcomp':
    case 'objectcomp': {
      // a comprehension always has exactly one value
      let out: Value | undefined;
      ev.evalTerm(t, f, (v) => ((out = v), true));
      return out;
    }
    default:
      return ND;
  }
}

// Constant composite literals (no vars, refs or calls) are built once and shared: values are immutable.
const constCache = new WeakMap<Term, Value | null>();

function constOf(t: Term): Value | undefined {
  const hit = constCache.get(t);
  if (hit !== undefined) return hit === null ? undefined : hit;
  const v = buildConst(t);
  constCache.set(t, v === undefined ? null : v);
  return v;
}

function buildConst(t: Term): Value | undefined {
  switch (t.type) {
    case 'scalar':
      return t.value;
    case 'array': {
      const out: Value[] = [];
      for (const x of t.items) {
        const v = buildConst(x);
        if (v === undefined) return undefined;
        out.push(v);
      }
      return out;
    }
    case 'set': {
      const out = new RegoSet();
      for (const x of t.items) {
        const v = buildConst(x);
        if (v === undefined) return undefined;
        out.add(v);
      }
      return out;
    }
    case 'object': {
      const entries: [Value, Value][] = [];
      for (const [a, b] of t.items) {
        const ka = buildConst(a);
        const vb = buildConst(b);
        if (ka === undefined || vb === undefined) return undefined;
        entries.push([ka, vb]);
      }
      return makeObject(entries);
    }
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Per call-site facts, computed once per call term.
interface CallInfo {
  /** print, relations (walk) and calls with an output argument enumerate: det() leaves them to evalCall */
  enumerates: boolean;
  /** no local variables anywhere in the call: its value is the same everywhere within one state */
  closed: boolean;
  /** OP_* for builtins det() computes inline (when no `with` or per-evaluation implementation replaces them) */
  op: number;
}

const OP_EQUAL = 1;

const OP_NEQ = 2;

const OP_LT = 3;

const OP_LTE = 4;

const OP_GT = 5;

const OP_GTE = 6;

const OP_PLUS = 7;

const OP_MINUS = 8;

const OP_MUL = 9;

const INLINE_OPS: Record<string, number> = {
  equal: OP_EQUAL,
  neq: OP_NEQ,
  lt: OP_LT,
  lte: OP_LTE,
  gt: OP_GT,
  gte: OP_GTE,
  plus: OP_PLUS,
  minus: OP_MINUS,
  mul: OP_MUL,
};

/** builtins whose repeated calls must not be merged (side effects or per-call results) */
const NOT_CLOSED = new Set(['print', 'trace']);

const callInfos = new WeakMap<CallTerm, CallInfo>();

function callInfo(t: CallTerm, policy: CompiledPolicy): CallInfo {
  let info = callInfos.get(t);
  if (info) return info;
  const name = t.name!;
  const isFunc = policy.funcs.has(name);
  const decl = isFunc ? undefined : policy.builtins.get(name);
  const enumerates = name === 'print' || t.args.length !== t.arity || !!decl?.relation;
  const closed = !enumerates && t.args.every((a) => isClosed(a, policy)) && pureCall(t, policy);
  let op = 0;
  if (!isFunc && !enumerates && t.args.length === 2 && Object.prototype.hasOwnProperty.call(INLINE_OPS, name)) {
    // only the builtins as registered (a custom builtin of the same name keeps its own implementation)
    const std = BUILTINS.get(name);
    if (std && decl && decl.impl === std.impl) op = INLINE_OPS[name];
  }
  info = { enumerates, closed, op };
  callInfos.set(t, info);
  return info;
}

/**
 * Calls whose repeated evaluation may be merged: user functions and the standard builtins, except those with
 * effects or per-call results. Custom builtins are left alone (their implementations may keep state).
 */
function pureCall(t: CallTerm, policy: CompiledPolicy): boolean {
  const name = t.name!;
  if (policy.funcs.has(name)) return true;
  if (NOT_CLOSED.has(name)) return false;
  const decl = policy.builtins.get(name);
  return decl !== undefined && decl === BUILTINS.get(name) && !decl.nondeterministic && !decl.relation;
}

/** A term with no local variables (and nothing that enumerates or has effects). */
function isClosed(t: Term, policy: CompiledPolicy): boolean {
  switch (t.type) {
    case 'scalar':
      return true;
    case 'var':
      return t.slot === -1;
    case 'ref':
      return t.terms.every((x) => isClosed(x, policy));
    case 'array':
    case 'set':
      return t.items.every((x) => isClosed(x, policy));
    case 'object':
      return t.items.every(([a, b]) => isClosed(a, policy) && isClosed(b, policy));
    case 'call':
      return (
        t.constValue !== undefined ||
        (t.args.length === t.arity && pureCall(t, policy) && t.args.every((x) => isClosed(x, policy)))
      );
    default:
      return false;
  }
}

/** Result of an inline builtin, or undefined to call the builtin itself (operands it does not handle here). */
function inlineOp(op: number, a: Value, b: Value): Value | undefined {
  switch (op) {
    case OP_EQUAL:
      return a === b || equals(a, b);
    case OP_NEQ:
      return !(a === b || equals(a, b));
  }
  if (op <= OP_GTE) {
    let c: number;
    if (typeof a === 'number' && typeof b === 'number') c = a < b ? -1 : a > b ? 1 : 0;
    else if (typeof a === 'string' && typeof b === 'string') c = compareStrings(a, b);
    else c = compare(a, b);
    return op === OP_LT ? c < 0 : op === OP_LTE ? c <= 0 : op === OP_GT ? c > 0 : c >= 0;
  }
  // numbers: what the builtins compute (number.ts); other operands (sets for `-`, type errors) via the builtin
  const ta = typeof a;
  const tb = typeof b;
  if ((ta !== 'number' && ta !== 'bigint') || (tb !== 'number' && tb !== 'bigint')) return undefined;
  return op === OP_PLUS ? numAdd(a as Num, b as Num) : op === OP_MINUS ? numSub(a as Num, b as Num) : numMul(a as Num, b as Num);
}
