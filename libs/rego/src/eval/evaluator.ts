/**
 * The evaluator's API: one Evaluator per evaluation (options, budget, prints), running compiled queries.
 *
 * Top-down evaluation in continuation-passing style. Bindings live in per-rule frames (arrays indexed by the slots
 * the compiler assigned); binding a var sets its slot, calls the continuation, then clears the slot, so
 * backtracking is free. A continuation returns true to stop the enumeration early.
 *
 * The work is done by one module per concern, which call one another only through `Ev` (core.ts), implemented
 * here by delegation: state.ts (state and memos), plan.ts (bodies and det() closures), expressions.ts, terms.ts
 * (terms and comprehensions), documents.ts (data, input, the rule tree), rules.ts, calls.ts, unify.ts.
 */
import type { CallTerm, Expr, Rule, Term } from '../ast/types';
import type { BuiltinContext, BuiltinImpl } from '../builtins/contract';
import { RegoError } from '../errors';
import type { CompiledPolicy } from '../compiler/policy';
import type { CompiledQuery } from '../compiler/types';
import type { RuleNode } from '../compiler/tree';
import { RegoSet, Value, toJSON } from '../value';
import type { Det, EvalOptions, Ev, Frame, K, KV, Multi, State } from './core';
import { initialState } from './state';
import * as plan from './plan';
import * as expressions from './expressions';
import * as terms from './terms';
import * as documents from './documents';
import * as rules from './rules';
import * as calls from './calls';
import * as unify from './unify';

export type { EvalOptions } from './core';
export { Multi } from './core';

export class Evaluator implements Ev {
  state: State;
  private steps = 0;
  private readonly maxSteps: number;
  private readonly deadline: number;
  readonly prints: string[] = [];
  readonly bctx: BuiltinContext;
  readonly strict: boolean;
  readonly impls?: Record<string, BuiltinImpl>;
  /**
   * Whether enumeration order is observable at this point (inside array comprehensions and the query itself);
   * elsewhere collections are iterated in insertion order, which spares sorting.
   */
  ordered = true;
  /** nodes being evaluated (guards against recursion through `with` replacement) */
  readonly active = new Set<RuleNode>();

  constructor(
    readonly policy: CompiledPolicy,
    opts: EvalOptions = {},
  ) {
    this.state = initialState(opts.input, opts.data ?? {});
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
  /** The query's rows: its named variables as JSON values. */
  query(q: CompiledQuery): Array<Record<string, unknown>> {
    return this.rows(q, (v) => toJSON(v));
  }

  /** Raw values of the query's output vars (for callers who want Rego values, e.g. sets). */
  queryValues(q: CompiledQuery): Array<Record<string, Value>> {
    return this.rows(q, (v) => v);
  }

  private rows<T>(q: CompiledQuery, out: (v: Value) => T): Array<Record<string, T>> {
    const frame: Frame = new Array(q.nslots);
    const rows: Array<Record<string, T>> = [];
    this.evalBody(q.body, 0, frame, () => {
      const row: Record<string, T> = {};
      for (const [name, slot] of q.outputs) {
        const v = frame[slot];
        if (v !== undefined) row[name] = out(v);
      }
      rows.push(row);
      return false;
    });
    return rows;
  }

  // ------------------------------------------------------------------ budget
  tick(): void {
    const s = ++this.steps;
    if (s > this.maxSteps) throw new RegoError('policy_resource_limit', `evaluation exceeded the step budget (${this.maxSteps})`);
    if ((s & 1023) === 0 && this.deadline !== Infinity && Date.now() > this.deadline) {
      throw new RegoError('policy_timeout', 'evaluation exceeded its deadline');
    }
  }

  // ------------------------------------------------------------------ Ev, by delegation to the modules
  evalBody(body: Expr[], i: number, f: Frame, k: K): boolean {
    return plan.evalBody(this, body, i, f, k);
  }
  det(t: Term, f: Frame): Det {
    return plan.det(this, t, f);
  }
  evalExpr(e: Expr, f: Frame, k: K): boolean {
    return expressions.evalExpr(this, e, f, k);
  }
  evalExprInner(e: Expr, f: Frame, k: K): boolean {
    return expressions.evalExprInner(this, e, f, k);
  }
  someIn(e: Expr & { kind: 'somein' }, coll: Value, f: Frame, k: K): boolean {
    return expressions.someIn(this, e, coll, f, k);
  }
  evalTerm(t: Term, f: Frame, k: KV): boolean {
    return terms.evalTerm(this, t, f, k);
  }
  evalItems(items: Term[], i: number, f: Frame, acc: Value[], k: (vs: Value[]) => boolean): boolean {
    return terms.evalItems(this, items, i, f, acc, k);
  }
  evalRef(t: Extract<Term, { type: 'ref' }>, f: Frame, k: KV): boolean {
    return documents.evalRef(this, t, f, k);
  }
  evalDataRef(ts: Term[], i: number, node: RuleNode, f: Frame, k: KV): boolean {
    return documents.evalDataRef(this, ts, i, node, f, k);
  }
  dataValue(node: RuleNode): Value | undefined {
    return documents.dataValue(this, node);
  }
  baseAt(path: readonly string[]): Value | undefined {
    return documents.baseAt(this, path);
  }
  ruleValue(node: RuleNode): Value | undefined {
    return rules.ruleValue(this, node);
  }
  partialLookup(node: RuleNode, key: Value): Value | undefined {
    return rules.partialLookup(this, node, key);
  }
  evalRuleChain(rule: Rule, out: (v: Value, r: Rule) => void, args?: Value[]): void {
    rules.evalRuleChain(this, rule, out, args);
  }
  evalCall(t: CallTerm, f: Frame, k: KV): boolean {
    return calls.evalCall(this, t, f, k);
  }
  callFunction(name: string, args: Value[], t: CallTerm): Value | Multi | undefined {
    return calls.callFunction(this, name, args, t);
  }
  callUserFunction(node: RuleNode, args: Value[]): Value | undefined {
    return calls.callUserFunction(this, node, args);
  }
  templateString(t: Extract<Term, { type: 'template' }>, f: Frame): string {
    return calls.templateString(this, t, f);
  }
  valuesOf(t: Term, f: Frame): RegoSet {
    return calls.valuesOf(this, t, f);
  }
  unifyTV(t: Term, v: Value, f: Frame, k: K): boolean {
    return unify.unifyTV(this, t, v, f, k);
  }
  unifyTerms(a: Term, b: Term, f: Frame, k: K): boolean {
    return unify.unifyTerms(this, a, b, f, k);
  }
  isPattern(t: Term, f: Frame): boolean {
    return unify.isPattern(this, t, f);
  }
}
