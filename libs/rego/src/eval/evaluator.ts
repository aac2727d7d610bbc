/**
 * Top-down evaluator in continuation-passing style. Bindings live in per-rule frames (arrays indexed by the
 * slots the compiler assigned); binding a var sets its slot, calls the continuation, then clears the slot, so
 * backtracking is free. A continuation returns true to stop the enumeration early.
 */
import type { ArrayCompTerm, CallTerm, Expr, ObjectCompTerm, RefTerm, Rule, SetCompTerm, TemplateTerm, Term, With } from '../ast/types';
import { RegoError } from '../errors';
import type { CompiledPolicy } from '../compiler/policy';
import type { CompiledQuery } from '../compiler/types';
import type { RuleNode } from '../compiler/tree';
import { BUILTINS, BuiltinContext, BuiltinError, BuiltinHaltError, BuiltinImpl, BuiltinTypeError } from '../builtins/registry';
import {
  PlainObject,
  RegoObject,
  RegoSet,
  Value,
  equals,
  hashKey,
  isObject,
  makeObject,
  objEntries,
  objGet,
  compare,
  compareStrings,
  setOwn,
  toJSON,
} from '../value';
import { indexString, indexValue, iterateValue, printText, upsert } from './values';
import { Num, add as numAdd, mul as numMul, sub as numSub } from '../number';

type Frame = (Value | undefined)[];
type DetFn = (ev: Evaluator, f: Frame) => Value | undefined | typeof ND;
/**
 * det() compiled per term, kept on the term itself under a symbol (a WeakMap lookup per evaluated term cost as
 * much as the evaluation it saved); terms belong to one compiled policy.
 */
const DET = Symbol('det');
type DetCached = { [DET]?: DetFn };
type Step = (ev: Evaluator, f: Frame, k: () => boolean) => boolean;
const STEPS = Symbol('steps');
type StepsCached = { [STEPS]?: Step[] };
/** `next` as a continuation; made apart so that callers' frames need no context for captured variables. */
function stepThen(next: Step, ev: Evaluator, f: Frame, k: () => boolean): () => boolean {
  return () => next(ev, f, k);
}
function cacheSteps(body: Expr[], steps: Step[]): Step[] {
  Object.defineProperty(body, STEPS, { value: steps, writable: true, configurable: true, enumerable: false });
  return steps;
}
type TryFn = (ev: Evaluator, f: Frame) => number;
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
type K = () => boolean;
type KV = (v: Value) => boolean;

export interface EvalOptions {
  input?: Value;
  data?: Value;
  nowNs?: bigint;
  deadlineMs?: number;
  maxSteps?: number;
  strictBuiltinErrors?: boolean;
  builtinImpls?: Record<string, BuiltinImpl>;
}

interface FuncOverride {
  func?: string;
  value?: Value;
}

/** The part of the evaluation state `with` replaces. */
interface State {
  input: Value | undefined;
  data: Value;
  masks: string[][]; // data paths replaced by `with data...` (rules at/below are hidden)
  funcs: Map<string, FuncOverride> | null;
  memo: Map<RuleNode, { v: Value | undefined }>;
  fnMemo: Map<string, { v: Value | undefined }>;
  calls: Map<RuleNode, CallMemo>;
  /** values of closed terms (no local variables: `max_age_days * day_ns`, `data.lib.x`), computed once per state */
  closed: Map<Term, { v: Value | undefined }>;
  comps: Map<Term, Map<string, unknown>>;
}

const UNDEF = { v: undefined };
/** Function results: one level per argument (the last level holds `{ v }`). */
type CallMemo = Map<unknown, CallMemo | { v: Value | undefined }>;
const NO_ARGS = Symbol('no arguments');
const ND = Symbol('nondeterministic');
const ND_EXPR = -3;
const FAIL = -2;
const OK = -1;

export class Evaluator {
  private state: State;
  private steps = 0;
  private readonly maxSteps: number;
  private readonly deadline: number;
  readonly prints: string[] = [];
  private readonly bctx: BuiltinContext;
  private readonly strict: boolean;
  private readonly impls?: Record<string, BuiltinImpl>;
  /**
   * Whether enumeration order is observable at this point (inside array comprehensions and the query itself);
   * elsewhere collections are iterated in insertion order, which spares sorting.
   */
  private ordered = true;
  /** nodes being evaluated (guards against recursion through `with` replacement) */
  private readonly active = new Set<RuleNode>();

  constructor(
    private readonly policy: CompiledPolicy,
    opts: EvalOptions = {},
  ) {
    this.state = {
      input: opts.input,
      data: opts.data ?? {},
      masks: [],
      funcs: null,
      memo: new Map(),
      fnMemo: new Map(),
      calls: new Map(),
      closed: new Map(),
      comps: new Map(),
    };
    this.maxSteps = opts.maxSteps ?? Infinity;
    this.deadline = opts.deadlineMs !== undefined ? Date.now() + opts.deadlineMs : Infinity;
    this.strict = !!opts.strictBuiltinErrors;
    this.impls = opts.builtinImpls;
    this.bctx = {
      nowNs: opts.nowNs ?? BigInt(Date.now()) * 1000000n,
      strict: this.strict,
      print: (m) => this.prints.push(m),
      rand: {},
      cache: new Map(),
    };
  }

  // ------------------------------------------------------------------ entry points
  query(q: CompiledQuery): Array<Record<string, unknown>> {
    const frame: Frame = new Array(q.nslots);
    const rows: Array<Record<string, unknown>> = [];
    this.evalBody(q.body, 0, frame, () => {
      const row: Record<string, unknown> = {};
      for (const [name, slot] of q.outputs) {
        const v = frame[slot];
        if (v !== undefined) row[name] = toJSON(v);
      }
      rows.push(row);
      return false;
    });
    return rows;
  }

  /** Raw values of the query's output vars (for callers who want Rego values, e.g. sets). */
  queryValues(q: CompiledQuery): Array<Record<string, Value>> {
    const frame: Frame = new Array(q.nslots);
    const rows: Array<Record<string, Value>> = [];
    this.evalBody(q.body, 0, frame, () => {
      const row: Record<string, Value> = {};
      for (const [name, slot] of q.outputs) {
        const v = frame[slot];
        if (v !== undefined) row[name] = v;
      }
      rows.push(row);
      return false;
    });
    return rows;
  }

  // ------------------------------------------------------------------ budget
  private tick(): void {
    const s = ++this.steps;
    if (s > this.maxSteps) throw new RegoError('policy_resource_limit', `evaluation exceeded the step budget (${this.maxSteps})`);
    if ((s & 1023) === 0 && this.deadline !== Infinity && Date.now() > this.deadline) {
      throw new RegoError('policy_timeout', 'evaluation exceeded its deadline');
    }
  }

  // ------------------------------------------------------------------ bodies and expressions
  evalBody(body: Expr[], i: number, f: Frame, k: K): boolean {
    const steps = (body as StepsCached)[STEPS] ?? cacheSteps(body, Evaluator.compileBody(body, this.policy));
    return steps[i](this, f, k);
  }

  /**
   * A body as a chain of steps, built once per body: steps[i] evaluates expression i, then steps[i + 1] (for each
   * solution), and steps[n] calls the continuation. Deterministic expressions (filters, assignments of single
   * values) are evaluated directly; the slot one binds is cleared when the rest of the body has been enumerated.
   * `some x in xs` over a collection that needs no enumeration binds its slots itself.
   */
  private static compileBody(body: Expr[], policy: CompiledPolicy): Step[] {
    const n = body.length;
    const steps: Step[] = new Array(n + 1);
    steps[n] = (_ev, _f, k) => k();
    const runnable = (e: Expr) => !e.with.length && e.kind !== 'somein' && e.kind !== 'every';
    let runEnd = n;
    for (let i = n - 1; i >= 0; i--) {
      if (!runnable(body[i])) {
        steps[i] = Evaluator.compileStep(body[i], steps[i + 1], i + 1 === n, policy);
        runEnd = i;
      } else {
        steps[i] = Evaluator.compileRun(body, i, runEnd, steps, policy);
      }
    }
    return steps;
  }

  /**
   * Expressions from..end-1, none of which iterates by its kind: evaluated in a loop (no stack frame per
   * expression). One that turns out to enumerate (a ref with an unbound key, say) is evaluated generically, with
   * the rest of the body as its continuation. The slots bound here are cleared once the rest has been enumerated.
   */
  private static compileRun(body: Expr[], from: number, end: number, steps: Step[], policy: CompiledPolicy): Step {
    const n = body.length;
    const tries: TryFn[] = [];
    for (let j = from; j < end; j++) tries.push((body[j] as TryCached)[TRY] ?? cacheTry(body[j], Evaluator.compileTry(body[j], policy)));
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

  private static compileStep(e: Expr, next: Step, last: boolean, policy: CompiledPolicy): Step {
    // continuation for the generic path (a closure per enumerating expression evaluated, as evalExpr needs one)
    const rest = last ? (_ev: Evaluator, _f: Frame, k: K): K => k : (ev: Evaluator, f: Frame, k: K): K => stepThen(next, ev, f, k);
    if (e.with.length) return (ev, f, k) => ev.evalExpr(e, f, rest(ev, f, k));
    if (e.kind === 'somein' && !e.negated) {
      const vt = e.value;
      const kt = e.key;
      const coll = e.collection;
      return (ev, f, k) => {
        ev.tick(); // as evalExpr
        const c = ev.det(coll, f);
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
    const tryDet = (e as TryCached)[TRY] ?? cacheTry(e, Evaluator.compileTry(e, policy));
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
  private tryDet(e: Expr, f: Frame): number {
    const fn = (e as TryCached)[TRY] ?? cacheTry(e, Evaluator.compileTry(e, this.policy));
    return fn(this, f);
  }

  /** tryDet specialised per expression: filters (`x.y == "z"`) and `v := <term>` skip the generic dispatch. */
  private static compileTry(e: Expr, policy: CompiledPolicy): TryFn {
    const generic: TryFn = (ev, f) => ev.tryDetSlow(e, f);
    const sub = (x: Term): DetFn => (x as DetCached)[DET] ?? cacheDet(x, Evaluator.compileDet(x, policy));
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
        if (f[ls] !== undefined) return ev.tryDetSlow(e, f);
        const v = R(ev, f);
        if (v === ND) return ND_EXPR;
        if (v === undefined) return FAIL;
        f[ls] = v;
        return ls;
      };
    }
    return generic;
  }

  private tryDetSlow(e: Expr, f: Frame): number {
    switch (e.kind) {
      case 'term': {
        const v = this.det(e.term, f);
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
          const v = this.det(r, f);
          if (v === ND) return ND_EXPR;
          if (v === undefined) return FAIL;
          f[l.slot!] = v;
          return l.slot!;
        }
        if (r.type === 'var' && r.slot !== -1 && f[r.slot!] === undefined) {
          const v = this.det(l, f);
          if (v === ND) return ND_EXPR;
          if (v === undefined) return FAIL;
          f[r.slot!] = v;
          return r.slot!;
        }
        if (this.isPattern(l, f) || this.isPattern(r, f)) return ND_EXPR;
        const a = this.det(l, f);
        if (a === ND) return ND_EXPR;
        if (a === undefined) return FAIL;
        const b = this.det(r, f);
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
  private det(t: Term, f: Frame): Value | undefined | typeof ND {
    const fn = (t as DetCached)[DET] ?? cacheDet(t, Evaluator.compileDet(t, this.policy));
    return fn(this, f);
  }

  /**
   * det() specialised per term, once: the common terms (locals, refs with constant or bound keys, calls, object
   * literals) become closures over their sub-terms' closures, so evaluating `s.slot.status == "COMPLETE"` walks no
   * AST and dispatches on no term type. Anything else goes through detSlow.
   */
  private static compileDet(t: Term, policy: CompiledPolicy): DetFn {
    const sub = (x: Term): DetFn => (x as DetCached)[DET] ?? cacheDet(x, Evaluator.compileDet(x, policy));
    const slow: DetFn = (ev, f) => ev.detSlow(t, f);
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
            const v = ev.detSlow(t, f);
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
  private detSlow(t: Term, f: Frame): Value | undefined | typeof ND {
    switch (t.type) {
      case 'scalar':
        return t.value;
      case 'var': {
        if (t.slot === -1) return t.name === 'input' ? this.state.input : ND;
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
              this.evalDataRef(terms, 1, this.policy.root, f, (x) => ((out = x), true));
              return out;
            }
            v = this.state.input;
          } else {
            v = f[head.slot!];
            if (v === undefined) return ND;
          }
        } else {
          const h = this.det(head, f);
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
            if (this.isPattern(op, f)) return ND;
            const kv = this.det(op, f);
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
          const a = this.det(t.items[i], f);
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
          const v = this.det(it, f);
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
          const kv = this.det(kt, f);
          if (kv === ND) return ND;
          const vv = this.det(vt, f);
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
        return this.templateString(t, f);
      case 'arraycomp':
      case 'setcomp':
      case 'objectcomp': {
        // a comprehension always has exactly one value
        let out: Value | undefined;
        this.evalTerm(t, f, (v) => ((out = v), true));
        return out;
      }
      default:
        return ND;
    }
  }

  private evalExpr(e: Expr, f: Frame, k: K): boolean {
    this.tick();
    if (e.with.length) return this.evalWith(e, f, k);
    if (e.negated) return this.evalNot(e, f, k);
    return this.evalExprInner(e, f, k);
  }

  /** `some k, v in coll` over one collection value. */
  private someIn(e: Expr & { kind: 'somein' }, coll: Value, f: Frame, k: K): boolean {
    const vt = e.value;
    const kt = e.key;
    const vs = vt.type === 'var' && vt.slot !== -1 && f[vt.slot!] === undefined ? vt.slot! : -1;
    const ks = !kt ? -2 : kt.type === 'var' && kt.slot !== -1 && f[kt.slot!] === undefined && kt.slot !== vs ? kt.slot! : -1;
    if (vs >= 0 && ks !== -1) {
      // common case `some k, v in xs` with fresh vars: bind the slots directly
      try {
        return iterateValue(coll, (key, val) => {
          this.tick();
          f[vs] = val;
          if (ks >= 0) f[ks] = key;
          return k();
        }, this.ordered);
      } finally {
        f[vs] = undefined;
        if (ks >= 0) f[ks] = undefined;
      }
    }
    return iterateValue(coll, (key, val) => (this.tick(), this.unifyTV(vt, val, f, kt ? () => this.unifyTV(kt, key, f, k) : k)), this.ordered);
  }

  private evalNot(e: Expr, f: Frame, k: K): boolean {
    let found = false;
    this.evalExprInner(e, f, () => (found = true));
    return found ? false : k();
  }

  private evalExprInner(e: Expr, f: Frame, k: K): boolean {
    switch (e.kind) {
      case 'term': {
        const t = e.term;
        if (t.type === 'call') return this.evalCall(t, f, (v) => (v === false ? false : k()));
        return this.evalTerm(t, f, (v) => (v === false ? false : k()));
      }
      case 'unify':
      case 'assign':
        return this.unifyTerms(e.left, e.right, f, k);
      case 'some':
        return k();
      case 'somein':
        return this.evalTerm(e.collection, f, (coll) => this.someIn(e, coll, f, k));
      case 'every':
        return this.evalTerm(e.domain, f, (dom) => {
          if (typeof dom !== 'object' || dom === null) return false;
          const ks = e.key?.slot;
          const vs = e.value.slot!;
          const failed = iterateValue(dom, (key, val) => {
            if (ks !== undefined) f[ks] = key;
            f[vs] = val;
            let ok = false;
            try {
              this.evalBody(e.body, 0, f, () => (ok = true));
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

  private evalWith(e: Expr, f: Frame, k: K): boolean {
    // evaluate the replacement values first (in the current state)
    const vals: (Value | undefined)[] = [];
    for (const w of e.with) {
      if (w.kind === 'func' && w.valueFunc) {
        vals.push(undefined);
        continue;
      }
      let got: Value | undefined;
      this.evalTerm(w.value, f, (v) => {
        got = v;
        return true;
      });
      if (got === undefined) return false;
      vals.push(got);
    }
    const outer = this.state;
    const ns: State = { ...outer, memo: new Map(), fnMemo: new Map(), calls: new Map(), closed: new Map(), comps: new Map() };
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
    this.state = ns;
    try {
      return this.evalExpr(plain, f, () => {
        const inner = this.state;
        this.state = outer;
        try {
          return k();
        } finally {
          this.state = inner;
        }
      });
    } finally {
      this.state = outer;
    }
  }

  // ------------------------------------------------------------------ terms
  evalTerm(t: Term, f: Frame, k: KV): boolean {
    if (t.type === 'ref' || t.type === 'call' || t.type === 'object' || t.type === 'array' || t.type === 'set') {
      const v = this.det(t, f);
      if (v !== ND) return v === undefined ? false : k(v);
    }
    return this.evalTermSlow(t, f, k);
  }

  /** The enumerating part of evalTerm, apart so that the common det() path allocates no closure context. */
  private evalTermSlow(t: Term, f: Frame, k: KV): boolean {
    switch (t.type) {
      case 'scalar':
        return k(t.value);
      case 'var': {
        if (t.slot === -1) {
          if (t.name === 'input') return this.state.input === undefined ? false : k(this.state.input);
          const d = this.dataValue(this.policy.root);
          return d === undefined ? false : k(d);
        }
        const v = f[t.slot!];
        return v === undefined ? false : k(v);
      }
      case 'ref':
        return this.evalRef(t, f, k);
      case 'call':
        return this.evalCall(t, f, k);
      case 'array':
        return this.evalItems(t.items, 0, f, [], (vs) => k(vs));
      case 'set':
        return this.evalItems(t.items, 0, f, [], (vs) => k(new RegoSet(vs)));
      case 'object': {
        const flat: Term[] = [];
        for (const [a, b] of t.items) flat.push(a, b);
        return this.evalItems(flat, 0, f, [], (vs) => {
          const entries: [Value, Value][] = [];
          for (let i = 0; i < vs.length; i += 2) entries.push([vs[i], vs[i + 1]]);
          return k(makeObject(entries));
        });
      }
      case 'template':
        return k(this.templateString(t, f));
      case 'arraycomp': {
        if (t.index) return this.evalIndexedComp(t, f, k);
        const out: Value[] = [];
        const saved = this.ordered;
        this.ordered = !t.unordered;
        try {
          this.evalBody(t.body, 0, f, () => this.evalTerm(t.term, f, (v) => (out.push(v), false)));
        } finally {
          this.ordered = saved;
        }
        return k(out);
      }
      case 'setcomp': {
        if (t.index) return this.evalIndexedComp(t, f, k);
        const out = new RegoSet();
        const saved = this.ordered;
        this.ordered = false;
        try {
          this.evalBody(t.body, 0, f, () => this.evalTerm(t.term, f, (v) => (out.add(v), false)));
        } finally {
          this.ordered = saved;
        }
        return k(out);
      }
      case 'objectcomp': {
        if (t.index) return this.evalIndexedComp(t, f, k);
        const out = new Map<string, [Value, Value]>();
        const saved = this.ordered;
        this.ordered = false;
        try {
          this.evalBody(t.body, 0, f, () =>
            this.evalTerm(t.key, f, (kv) =>
              this.evalTerm(t.value, f, (vv) => {
                const h = hashKey(kv);
                const prev = out.get(h);
                if (prev && !equals(prev[1], vv)) throw new RegoError('eval_conflict_error', 'object keys must be unique', t.loc);
                out.set(h, [kv, vv]);
                return false;
              }),
            ),
          );
        } finally {
          this.ordered = saved;
        }
        return k(makeObject(out.values()));
      }
    }
  }

  /** Indexed comprehension: evaluated once per state, grouped by its key terms, looked up by the outer values. */
  private evalIndexedComp(t: ArrayCompTerm | SetCompTerm | ObjectCompTerm, f: Frame, k: KV): boolean {
    const idx = t.index!;
    let groups = this.state.comps.get(t);
    if (!groups) {
      const g = new Map<string, { arr?: Value[]; set?: RegoSet; obj?: Map<string, [Value, Value]>; conflict?: boolean }>();
      const saved = this.ordered;
      this.ordered = t.type === 'arraycomp' && !t.unordered;
      try {
        this.evalBody(idx.body, 0, f, () =>
          this.evalItems(idx.keys, 0, f, [], (keys) => {
            const h = keys.length === 1 ? hashKey(keys[0]) : hashKey(keys);
            let grp = g.get(h);
            if (!grp) g.set(h, (grp = {}));
            const entry = grp;
            if (t.type === 'arraycomp') return this.evalTerm(t.term, f, (v) => ((entry.arr ??= []).push(v), false));
            if (t.type === 'setcomp') return this.evalTerm(t.term, f, (v) => ((entry.set ??= new RegoSet()).add(v), false));
            return this.evalTerm(t.key, f, (kv) =>
              this.evalTerm(t.value, f, (vv) => {
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
        this.ordered = saved;
      }
      groups = g;
      this.state.comps.set(t, g);
    }
    return this.evalItems(idx.outer, 0, f, [], (outer) => {
      const h = outer.length === 1 ? hashKey(outer[0]) : hashKey(outer);
      const grp = (groups as Map<string, { arr?: Value[]; set?: RegoSet; obj?: Map<string, [Value, Value]>; conflict?: boolean }>).get(h);
      if (t.type === 'arraycomp') return k(grp?.arr ?? []);
      if (t.type === 'setcomp') return k(grp?.set ?? new RegoSet());
      if (grp?.conflict) throw new RegoError('eval_conflict_error', 'object keys must be unique', t.loc);
      return k(grp?.obj ? makeObject(grp.obj.values()) : {});
    });
  }

  private evalItems(items: Term[], i: number, f: Frame, acc: Value[], k: (vs: Value[]) => boolean): boolean {
    // fast path: scalars and bound vars need no continuation
    while (i < items.length) {
      const t = items[i];
      if (t.type === 'scalar') acc.push(t.value);
      else if (t.type === 'var' && t.slot !== undefined && t.slot >= 0) {
        const v = f[t.slot];
        if (v === undefined) return this.evalItemsDeferred(items, f, k);
        acc.push(v);
      } else break;
      i++;
    }
    if (i === items.length) return k(acc); // acc is owned by this call chain and not reused
    return this.evalTerm(items[i], f, (v) => {
      const next = acc.slice();
      next.push(v);
      return this.evalItems(items, i + 1, f, next, k);
    });
  }

  /** Items where a plain var is bound only by a later ref (`foo == xs[foo]`): refs/calls first. */
  private evalItemsDeferred(items: Term[], f: Frame, k: (vs: Value[]) => boolean): boolean {
    const order: number[] = [];
    items.forEach((t, i) => t.type !== 'var' && t.type !== 'scalar' && order.push(i));
    items.forEach((t, i) => (t.type === 'var' || t.type === 'scalar') && order.push(i));
    const out: Value[] = new Array(items.length);
    const rec = (j: number): boolean => {
      if (j === order.length) return k(out.slice());
      const idx = order[j];
      return this.evalTerm(items[idx], f, (v) => {
        out[idx] = v;
        return rec(j + 1);
      });
    };
    return rec(0);
  }

  // ------------------------------------------------------------------ refs
  private evalRef(t: RefTerm, f: Frame, k: KV): boolean {
    const head = t.terms[0];
    if (head.type === 'var' && head.slot === -1) {
      if (head.name === 'data') return this.evalDataRef(t.terms, 1, this.policy.root, f, k);
      const input = this.state.input;
      if (input === undefined) return false;
      return this.walkValue(input, t.terms, 1, f, k);
    }
    return this.evalTerm(head, f, (base) => this.walkValue(base, t.terms, 1, f, k));
  }

  /** Is the term a pattern (has an unbound var outside refs) rather than something to evaluate? */
  private isPattern(t: Term, f: Frame): boolean {
    switch (t.type) {
      case 'var':
        return t.slot !== -1 && f[t.slot!] === undefined;
      case 'array':
      case 'set':
        return t.items.some((x) => this.isPattern(x, f));
      case 'object':
        return t.items.some(([a, b]) => this.isPattern(a, f) || this.isPattern(b, f));
      default:
        return false;
    }
  }

  private walkValue(v: Value, terms: Term[], i: number, f: Frame, k: KV, dm = false): boolean {
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
              this.tick();
              f[slot] = kk;
              return this.walkValue(x, terms, next, f, k, dm);
            }, this.ordered);
          } finally {
            f[slot] = undefined;
          }
        }
      } else if (this.isPattern(op, f)) {
        const next = i + 1;
        return iterateValue(v, (kk, x) => this.unifyTV(op, kk, f, () => this.walkValue(x, terms, next, f, k)), this.ordered);
      } else {
        const next = i + 1;
        return this.evalTerm(op, f, (kk) => {
          const x = indexValue(v, kk);
          return x === undefined ? false : this.walkValue(x, terms, next, f, k);
        });
      }
      const x = dm ? indexData(v, key) : indexValue(v, key);
      if (x === undefined) return false;
      v = x;
      i++;
    }
    return k(v);
  }

  private masked(path: readonly string[]): boolean {
    const masks = this.state.masks;
    if (!masks.length) return false;
    outer: for (const m of masks) {
      if (m.length > path.length) continue;
      for (let j = 0; j < m.length; j++) if (m[j] !== path[j]) continue outer;
      return true;
    }
    return false;
  }

  private baseAt(path: readonly string[]): Value | undefined {
    let v: Value | undefined = this.state.data;
    for (const p of path) {
      if (v === undefined) return undefined;
      v = indexValue(v, p);
    }
    return v;
  }

  private evalDataRef(terms: Term[], i: number, node: RuleNode, f: Frame, k: KV): boolean {
    for (;;) {
      if (this.masked(node.path) || !node.hasRules) {
        const base = this.baseAt(node.path);
        return base === undefined ? false : this.walkValue(base, terms, i, f, k, true);
      }
      if (node.rules.length || node.defaultRule) {
        if (node.kind === 'function') {
          // a function of no arguments is also a document: `f() := x` read as `f`
          if (node.arity !== 0) return false;
          const v = this.zeroArity(node);
          return v === undefined ? false : this.walkValue(v, terms, i, f, k);
        }
        if (i < terms.length && (node.kind === 'object' || node.kind === 'multi') && !this.state.memo.has(node) && !this.hasMasksBelow(node.path)) {
          // lookup of one key: evaluate only the rules that can produce it
          const op = terms[i];
          let key: Value | undefined;
          if (op.type === 'scalar') key = op.value;
          else if (op.type === 'var' && op.slot !== -1) key = f[op.slot!];
          if (key !== undefined) {
            const v = this.partialLookup(node, key);
            return v === undefined ? false : this.walkValue(v, terms, i + 1, f, k);
          }
        }
        const v = this.dataValue(node);
        return v === undefined ? false : this.walkValue(v, terms, i, f, k);
      }
      if (i === terms.length) {
        const v = this.dataValue(node);
        return v === undefined ? false : k(v);
      }
      const op = terms[i];
      let key: Value | undefined;
      if (op.type === 'scalar') key = op.value;
      else if (op.type === 'var' && op.slot !== -1) key = f[op.slot!];
      if (key === undefined) {
        if (op.type === 'var' || this.isPattern(op, f)) {
          // Enumerate the keys under this node (child documents and base data) and follow the rest of the ref
          // into each: `data.rules[name].report` evaluates only `report` in each package, as OPA does.
          const n0 = node;
          const next = i + 1;
          const base = this.baseAt(n0.path);
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
              ? this.unifyTV(op, name, f, () => this.evalDataRef(terms, next, c, f, k))
              : this.unifyTV(op, name, f, () => this.walkValue(indexValue(base!, name)!, terms, next, f, k, true));
            if (stop) return true;
          }
          for (const kk of baseKeys) {
            if (this.unifyTV(op, kk, f, () => this.walkValue(indexValue(base!, kk)!, terms, next, f, k, true))) return true;
          }
          return false;
        }
        const next = i + 1;
        const n0 = node;
        return this.evalTerm(op, f, (kk) => {
          const c = typeof kk === 'string' ? n0.children.get(kk) : undefined;
          if (c) return this.evalDataRef(terms, next, c, f, k);
          const base = this.baseAt(n0.path);
          const x = base === undefined ? undefined : indexValue(base, kk);
          return x === undefined ? false : this.walkValue(x, terms, next, f, k);
        });
      }
      if (typeof key === 'number') key = String(key);
      const c = typeof key === 'string' ? node.children.get(key) : undefined;
      if (c) {
        node = c;
        i++;
        continue;
      }
      const base = this.baseAt(node.path);
      const x = base === undefined ? undefined : indexData(base, key);
      return x === undefined ? false : this.walkValue(x, terms, i + 1, f, k, true);
    }
  }

  private hasMasksBelow(path: readonly string[]): boolean {
    const masks = this.state.masks;
    if (!masks.length) return false;
    outer: for (const m of masks) {
      if (m.length <= path.length) continue;
      for (let j = 0; j < path.length; j++) if (m[j] !== path[j]) continue outer;
      return true;
    }
    return false;
  }

  /** Full value of the document at a node: rules, children and base data merged (memoised per state). */
  dataValue(node: RuleNode): Value | undefined {
    const memo = this.state.memo.get(node);
    if (memo) return memo.v;
    let v: Value | undefined;
    if (this.masked(node.path) || !node.hasRules) {
      v = this.baseAt(node.path);
    } else {
      let own: Value | undefined;
      if ((node.rules.length || node.defaultRule) && node.kind !== 'function') own = this.ruleValue(node);
      else if (node.kind === 'function' && node.arity === 0) own = this.zeroArity(node);
      const entries: [Value, Value][] = [];
      let hasChildren = false;
      for (const c of node.children.values()) {
        if (!c.hasRules) continue;
        hasChildren = true;
        const cv = this.dataValue(c);
        if (cv !== undefined) entries.push([c.name, cv]);
      }
      const base = this.baseAt(node.path);
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
      if (v !== undefined && this.hasMasksBelow(node.path)) {
        for (const m of this.state.masks) {
          if (m.length > node.path.length && node.path.every((p, j) => m[j] === p)) {
            const sub = m.slice(node.path.length);
            const mv = this.baseAt(m);
            if (mv !== undefined) v = upsert(v, sub, mv);
          }
        }
      }
    }
    this.state.memo.set(node, v === undefined ? UNDEF : { v });
    return v;
  }

  /** Value of a function of no arguments read as a document (honours `with` replacing it). */
  private zeroArity(node: RuleNode): Value | undefined {
    const name = 'data.' + node.path.join('.');
    const r = this.callFunction(name, [], { type: 'call', op: { type: 'ref', terms: [], loc: node.rules[0].loc }, args: [], loc: node.rules[0].loc, name });
    return r instanceof Multi ? undefined : r;
  }

  // ------------------------------------------------------------------ rules
  private ruleValue(node: RuleNode): Value | undefined {
    if (this.active.has(node)) throw new RegoError('rego_recursion_error', `rule ${node.pathStr} is recursive`, (node.rules[0] ?? node.defaultRule)!.loc);
    this.active.add(node);
    const saved = this.ordered;
    this.ordered = false;
    try {
      switch (node.kind) {
        case 'complete':
          return this.completeValue(node);
        case 'multi':
        case 'object':
          return this.partialValue(node, node.rules);
        default:
          return undefined;
      }
    } finally {
      this.active.delete(node);
      this.ordered = saved;
    }
  }

  private completeValue(node: RuleNode): Value | undefined {
    let result: Value | undefined;
    for (const rule of node.rules) {
      this.evalRuleChain(rule, (v, r) => {
        if (result === undefined) {
          result = v;
        } else if (!equals(result, v)) {
          throw new RegoError('eval_conflict_error', `rule ${node.pathStr} produced conflicting values`, r.loc);
        }
      });
    }
    if (result === undefined && node.defaultRule) {
      const d = node.defaultRule;
      const frame: Frame = new Array(d.nslots ?? 0);
      this.evalTerm(d.head.value!, frame, (v) => ((result = v), true));
    }
    return result;
  }

  /** Evaluates a complete rule with its else chain; calls out(value) per solution of the first body that holds. */
  private evalRuleChain(rule: Rule, out: (v: Value, r: Rule) => void, args?: Value[]): void {
    for (let r: Rule | undefined = rule; r; r = r.else) {
      let found = false;
      const frame: Frame = new Array(r.nslots ?? 0);
      const valueTerm = r.head.value!;
      const constant = valueTerm.type === 'scalar';
      const onBody = () =>
        this.evalTerm(valueTerm, frame, (v) => {
          found = true;
          out(v, r!);
          return constant;
        });
      if (args) this.unifyArgs(r.head.args!, args, 0, frame, () => this.evalBody(r!.body, 0, frame, onBody));
      else this.evalBody(r.body, 0, frame, onBody);
      if (found) return;
    }
  }

  private unifyArgs(pats: Term[], args: Value[], i: number, f: Frame, k: K): boolean {
    if (i === pats.length) return k();
    return this.unifyTV(pats[i], args[i], f, () => this.unifyArgs(pats, args, i + 1, f, k));
  }

  /** Value of partial set/object rules (all of them, or those selected by an index lookup). */
  private partialValue(node: RuleNode, rules: Rule[]): Value | undefined {
    const multi = node.kind === 'multi';
    const root: Builder = new Map();
    let any = false;
    for (const rule of rules) {
      const frame: Frame = new Array(rule.nslots ?? 0);
      const dyn = rule.dyn ?? [];
      const leaf = multi ? rule.head.key! : rule.head.value!;
      const insert = (lv: Value) => {
        any = true;
        insertBuilder(root, NO_KEYS, lv, multi, rule);
        return false;
      };
      if (dyn.length === 0) {
        // `p contains x if ...` (or `p[k] := v` with a constant key): the leaf usually needs no enumeration
        this.evalBody(rule.body, 0, frame, () => {
          const lv = this.det(leaf, frame);
          if (lv === ND) return this.evalTerm(leaf, frame, insert);
          return lv === undefined ? false : insert(lv);
        });
        continue;
      }
      this.evalBody(rule.body, 0, frame, () =>
        this.evalItems(dyn, 0, frame, [], (keys) =>
          this.evalTerm(leaf, frame, (lv) => {
            any = true;
            insertBuilder(root, keys, lv, multi, rule);
            return false;
          }),
        ),
      );
    }
    if (!any) return multi && (node.rules[0]?.dyn?.length ?? 0) === 0 ? new RegoSet() : {};
    return buildValue(root, multi && (rules[0].dyn?.length ?? 0) === 0);
  }

  /**
   * `data.p[key]` for a partial rule. When every definition has a constant first key (a table of rules such as
   * `limits["cpu"] := 2`), only the definitions for `key` are evaluated; otherwise the full document is computed
   * (memoised) and indexed.
   */
  private partialLookup(node: RuleNode, key: Value): Value | undefined {
    let constantKeys = node.children.size === 0 && node.rules.length > 1;
    if (constantKeys && this.baseAt(node.path) !== undefined) constantKeys = false;
    if (constantKeys) {
      for (const r of node.rules) {
        const d = r.dyn ?? [];
        if (!d.length || d[0].type !== 'scalar') {
          constantKeys = false;
          break;
        }
      }
    }
    if (!constantKeys) {
      const full = this.dataValue(node);
      return full === undefined ? undefined : indexValue(full, key);
    }
    const memoKey = node.pathStr + '\u0001' + hashKey(key);
    const hit = this.state.fnMemo.get(memoKey);
    if (hit) return hit.v;
    const rules = node.rules.filter((r) => equals((r.dyn![0] as { value: Value }).value, key));
    let v: Value | undefined;
    if (rules.length) {
      const saved = this.ordered;
      this.ordered = false;
      this.active.add(node);
      try {
        v = indexValue(this.partialValue(node, rules)!, key);
      } finally {
        this.active.delete(node);
        this.ordered = saved;
      }
    }
    this.state.fnMemo.set(memoKey, v === undefined ? UNDEF : { v });
    return v;
  }

  // ------------------------------------------------------------------ calls
  private evalCall(t: CallTerm, f: Frame, k: KV): boolean {
    if (t.constValue !== undefined) return k(t.constValue);
    const name = t.name!;
    const arity = t.arity ?? t.args.length;
    const nIn = Math.min(arity, t.args.length);
    if (name === 'print') return this.evalPrint(t, f, k);
    return this.evalItems(nIn === t.args.length ? t.args : t.args.slice(0, nIn), 0, f, [], (args) => {
      const result = this.callFunction(name, args, t);
      if (result === undefined) return false;
      if (result instanceof Multi) {
        for (const r of result.values) {
          if (t.args.length > nIn ? this.unifyTV(t.args[nIn], r, f, () => k(true)) : k(r)) return true;
        }
        return false;
      }
      if (t.args.length > nIn) return this.unifyTV(t.args[nIn], result, f, () => k(true));
      return k(result);
    });
  }

  /** All values a term produces, as a set (empty when undefined): how OPA feeds print and template strings. */
  private valuesOf(t: Term, f: Frame): RegoSet {
    const out = new RegoSet();
    this.evalTerm(t, f, (v) => (out.add(v), false));
    return out;
  }

  /** Template string: literal parts and the values of the embedded terms (`<undefined>` when there are none). */
  private templateString(t: TemplateTerm, f: Frame): string {
    const parts: Value[] = t.parts.map((p) => (typeof p === 'string' ? p : this.valuesOf(p, f)));
    if (this.policy.builtins.get('internal.template_string')?.impl) {
      const r = this.callFunction('internal.template_string', [parts], t as unknown as CallTerm);
      if (typeof r === 'string') return r;
    }
    let s = '';
    for (const p of parts) s += typeof p === 'string' ? p : p instanceof RegoSet && p.size ? printText(p.sorted()[0]) : '<undefined>';
    return s;
  }

  private evalPrint(t: CallTerm, f: Frame, k: KV): boolean {
    const sets: Value[] = [];
    for (const a of t.args) {
      let vs = new RegoSet();
      try {
        vs = this.valuesOf(a, f);
      } catch (e) {
        if (!(e instanceof RegoError) || e.code === 'policy_timeout' || e.code === 'policy_resource_limit') throw e;
      }
      sets.push(vs);
    }
    if (this.policy.builtins.get('print')?.impl && !this.state.funcs?.has('print')) {
      this.callFunction('print', sets, t);
    } else {
      this.prints.push(sets.map((x) => (x instanceof RegoSet && x.size ? printText(x.sorted()[0]) : '<undefined>')).join(' '));
    }
    return k(true);
  }

  /** Calls a user function or builtin by resolved name (honouring `with` replacements). */
  callFunction(name: string, args: Value[], t: CallTerm): Value | Multi | undefined {
    const ov = this.state.funcs?.get(name);
    if (ov) {
      if (ov.value !== undefined) return ov.value;
      if (ov.func) {
        // a replacement runs without any mocks (it may call the original it replaces)
        const saved = this.state;
        this.state = { ...saved, funcs: null, memo: new Map(), fnMemo: new Map(), calls: new Map(), closed: new Map(), comps: new Map() };
        try {
          return this.callFunction(ov.func, args, t);
        } finally {
          this.state = saved;
        }
      }
    }
    const fn = this.policy.funcs.get(name);
    if (fn) return this.callUserFunction(fn, args);
    if (name === 'internal.member_2') return memberOf(args[0], args[1]);
    if (name === 'internal.member_3') return memberWithKey(args[0], args[1], args[2]);
    const decl = this.policy.builtins.get(name);
    const impl = this.impls?.[name] ?? decl?.impl;
    if (!impl) throw new RegoError('eval_builtin_error', `${name}: builtin not implemented`, t.loc);
    let r: Value | undefined;
    try {
      r = impl(args, this.bctx);
    } catch (e) {
      if (e instanceof RegoError) throw e;
      if (e instanceof BuiltinHaltError) throw new RegoError('eval_builtin_error', `${name}: ${e.message}`, t.loc);
      if (e instanceof BuiltinTypeError || e instanceof BuiltinError) {
        if (!this.strict) return undefined;
        // OPA reports operand errors as type errors
        const code = e instanceof BuiltinTypeError || /^operand \d+ /.test(e.message) ? 'eval_type_error' : 'eval_builtin_error';
        throw new RegoError(code, `${name}: ${e.message}`, t.loc);
      }
      if (this.strict) throw new RegoError('eval_builtin_error', `${name}: ${(e as Error).message}`, t.loc);
      return undefined;
    }
    if (r !== undefined && decl?.relation) return new Multi(r as Value[]);
    return r;
  }

  private callUserFunction(node: RuleNode, args: Value[]): Value | undefined {
    // memo per function, then one Map level per argument: scalars by value, composites by identity (hashing a
    // large input per call would cost more than evaluating the function; equal-but-distinct composites only miss)
    let m = this.state.calls.get(node);
    if (!m) this.state.calls.set(node, (m = new Map()));
    const last = args.length - 1;
    for (let i = 0; i < last; i++) {
      let n = m.get(args[i]) as CallMemo | undefined;
      if (!n) m.set(args[i], (n = new Map()));
      m = n;
    }
    const lastKey = last >= 0 ? args[last] : NO_ARGS;
    const memo = m.get(lastKey) as { v: Value | undefined } | undefined;
    if (memo) return memo.v;
    const result = this.evalFunction(node, args);
    m.set(lastKey, result === undefined ? UNDEF : { v: result });
    return result;
  }

  private evalFunction(node: RuleNode, args: Value[]): Value | undefined {
    let result: Value | undefined;
    const saved = this.ordered;
    this.ordered = false;
    try {
      for (const rule of functionCandidates(node, args)) {
        this.evalRuleChain(
          rule,
          (v, r) => {
            if (result === undefined) result = v;
            else if (!equals(result, v)) {
              throw new RegoError('eval_conflict_error', `function ${node.pathStr} produced conflicting values for the same inputs`, r.loc);
            }
          },
          args,
        );
      }
    } finally {
      this.ordered = saved;
    }
    if (result === undefined && node.defaultRule) {
      const d = node.defaultRule;
      const frame: Frame = new Array(d.nslots ?? 0);
      this.evalTerm(d.head.value!, frame, (v) => ((result = v), true));
    }
    return result;
  }

  // ------------------------------------------------------------------ unification
  /** Unifies a term (possibly with unbound vars) with a ground value. */
  unifyTV(t: Term, v: Value, f: Frame, k: K): boolean {
    switch (t.type) {
      case 'var': {
        if (t.slot === -1) return this.evalTerm(t, f, (x) => (equals(x, v) ? k() : false));
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
        return this.unifyItems(t.items, v, 0, f, k);
      }
      case 'object': {
        if (!isObject(v)) return false;
        if ((v instanceof RegoObject ? v.size : Object.keys(v).length) !== t.items.length) return false;
        if (!this.isPattern(t, f)) return this.evalTerm(t, f, (x) => (equals(x, v) ? k() : false));
        return this.unifyObject(t.items, v, 0, f, k);
      }
      default:
        return this.evalTerm(t, f, (x) => (equals(x, v) ? k() : false));
    }
  }

  private unifyItems(items: Term[], vs: Value[], i: number, f: Frame, k: K): boolean {
    if (i === items.length) return k();
    return this.unifyTV(items[i], vs[i], f, () => this.unifyItems(items, vs, i + 1, f, k));
  }

  private unifyObject(items: [Term, Term][], v: PlainObject | RegoObject, i: number, f: Frame, k: K): boolean {
    if (i === items.length) return k();
    const [kt, vt] = items[i];
    return this.evalTerm(kt, f, (key) => {
      const x = objGet(v, key);
      if (x === undefined) return false;
      return this.unifyTV(vt, x, f, () => this.unifyObject(items, v, i + 1, f, k));
    });
  }

  unifyTerms(a: Term, b: Term, f: Frame, k: K): boolean {
    const pa = this.isPattern(a, f);
    const pb = this.isPattern(b, f);
    if (!pb) return this.evalTerm(b, f, (v) => this.unifyTV(a, v, f, k));
    if (!pa) return this.evalTerm(a, f, (v) => this.unifyTV(b, v, f, k));
    // both sides have unbound vars: unify element-wise, taking first the pairs with an evaluable side
    if (a.type === 'array' && b.type === 'array') {
      if (a.items.length !== b.items.length) return false;
      return this.unifyPairs(a.items.map((x, i) => [x, b.items[i]] as [Term, Term]), f, k);
    }
    if (a.type === 'object' && b.type === 'object') {
      if (a.items.length !== b.items.length) return false;
      const pairs: [Term, Term][] = [];
      for (const [ka, va] of a.items) {
        const kva = this.keyOf(ka, f);
        const m = b.items.find(([kb]) => {
          const kvb = this.keyOf(kb, f);
          return kva !== undefined && kvb !== undefined && equals(kva, kvb);
        });
        if (!m) return false;
        pairs.push([va, m[1]]);
      }
      return this.unifyPairs(pairs, f, k);
    }
    return false;
  }

  private keyOf(t: Term, f: Frame): Value | undefined {
    if (t.type === 'scalar') return t.value;
    if (t.type === 'var' && t.slot !== -1) return f[t.slot!];
    let out: Value | undefined;
    if (!this.isPattern(t, f)) this.evalTerm(t, f, (v) => ((out = v), true));
    return out;
  }

  private unifyPairs(pairs: [Term, Term][], f: Frame, k: K): boolean {
    if (pairs.length === 0) return k();
    let idx = pairs.findIndex(([x, y]) => !this.isPattern(x, f) || !this.isPattern(y, f));
    if (idx < 0) idx = 0;
    const [x, y] = pairs[idx];
    const rest = pairs.slice(0, idx).concat(pairs.slice(idx + 1));
    return this.unifyTerms(x, y, f, () => this.unifyPairs(rest, f, k));
  }
}

/**
 * Rule index for functions: definitions whose first argument is a constant are found by that constant's hash;
 * the others are always tried. Only built when at least two definitions have constant first arguments.
 */
function functionCandidates(node: RuleNode, args: Value[]): Rule[] {
  if (node.rules.length < 3 || args.length === 0) return node.rules;
  if (!node.index) {
    const index = new Map<string, Rule[]>();
    const rest: Rule[] = [];
    for (const r of node.rules) {
      const a = r.head.args![0];
      if (a.type === 'scalar') {
        const h = hashKey(a.value);
        const l = index.get(h);
        if (l) l.push(r);
        else index.set(h, [r]);
      } else rest.push(r);
    }
    node.index = index;
    node.indexRest = rest;
  }
  if (node.index.size < 2) return node.rules;
  const hit = node.index.get(hashKey(args[0]));
  if (!hit) return node.indexRest!;
  if (!node.indexRest!.length) return hit;
  return node.rules.filter((r) => hit.includes(r) || node.indexRest!.includes(r));
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

/** Several results of a relation builtin (e.g. walk). */
export class Multi {
  constructor(readonly values: Value[]) {}
}

function memberOf(x: Value, coll: Value): Value {
  if (typeof coll !== 'object' || coll === null) return false;
  if (coll instanceof RegoSet) return coll.has(x);
  if (Array.isArray(coll)) return coll.some((y) => equals(x, y));
  for (const [, v] of objEntries(coll)) if (equals(x, v)) return true;
  return false;
}

function memberWithKey(key: Value, x: Value, coll: Value): Value {
  if (typeof coll !== 'object' || coll === null) return false;
  if (coll instanceof RegoSet) return coll.has(x) && equals(key, x);
  const v = indexValue(coll, key);
  return v !== undefined && equals(v, x);
}

// ---------------------------------------------------------------------------------------------------------------
// Building partial rule values: nested maps keyed by hashKey; leaves are values (object rules) or sets (multi).

type Builder = Map<string, [Value, BuilderNode]>;
type BuilderNode = { map: Builder } | { value: Value } | { set: RegoSet };

const NO_KEYS: Value[] = [];

function insertBuilder(root: Builder, keys: Value[], leaf: Value, multi: boolean, rule: Rule): void {
  if (multi && keys.length === 0) {
    let s = root.get('');
    if (!s) root.set('', (s = [null, { set: new RegoSet() }]));
    (s[1] as { set: RegoSet }).set.add(leaf);
    return;
  }
  let m = root;
  for (let i = 0; i < keys.length; i++) {
    const h = hashKey(keys[i]);
    const last = i === keys.length - 1;
    let e = m.get(h);
    if (last) {
      if (multi) {
        if (!e) m.set(h, (e = [keys[i], { set: new RegoSet() }]));
        if (!('set' in e[1])) throw new RegoError('eval_conflict_error', `object keys must be unique`, rule.loc);
        e[1].set.add(leaf);
      } else {
        if (e) {
          if (!('value' in e[1]) || !equals(e[1].value, leaf)) {
            throw new RegoError('eval_conflict_error', `object keys must be unique`, rule.loc);
          }
        } else m.set(h, [keys[i], { value: leaf }]);
      }
      return;
    }
    if (!e) m.set(h, (e = [keys[i], { map: new Map() }]));
    if (!('map' in e[1])) throw new RegoError('eval_conflict_error', `object keys must be unique`, rule.loc);
    m = e[1].map;
  }
}

function buildValue(root: Builder, topSet: boolean): Value {
  if (topSet) return (root.get('')![1] as { set: RegoSet }).set;
  return buildMap(root);
}

function buildMap(m: Builder): Value {
  const entries: [Value, Value][] = [];
  for (const [k, n] of m.values()) {
    entries.push([k, 'map' in n ? buildMap(n.map) : 'set' in n ? n.set : n.value]);
  }
  return makeObject(entries);
}

