/**
 * What the evaluator's modules share, and nothing else (a leaf of eval/): the value a term may evaluate to
 * without enumerating (`ND` when it must enumerate), continuations, frames, the per-`with` state, and `Ev`, the
 * interface through which one module calls another (the Evaluator implements it by delegating to them), so no
 * module imports another and none imports the evaluator.
 */
import type { CallTerm, Expr, Rule, Term } from '../ast/types';
import type { BuiltinContext, BuiltinImpl } from '../builtins/contract';
import type { CompiledPolicy } from '../compiler/policy';
import type { RuleNode } from '../compiler/tree';
import type { RegoSet, Value } from '../value';

/** Bindings of one rule body (or query): values by the slots the compiler assigned; undefined = unbound. */
export type Frame = (Value | undefined)[];
/** A continuation: true stops the enumeration early. */
export type K = () => boolean;
/** A continuation taking the value a term produced. */
export type KV = (v: Value) => boolean;

/** det(): the term needs enumerating (a ref with an unbound key, a relation, ...). */
export const ND = Symbol('nondeterministic');
export type Det = Value | undefined | typeof ND;

/** tryDet() outcomes: the expression enumerates, fails, holds, or (>= 0) holds binding that slot. */
export const ND_EXPR = -3;
export const FAIL = -2;
export const OK = -1;

export interface FuncOverride {
  func?: string;
  value?: Value;
}

/** Function results: one level per argument (the last level holds `{ v }`). */
export type CallMemo = Map<unknown, CallMemo | { v: Value | undefined }>;

/** The part of the evaluation state `with` replaces. */
export interface State {
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

/** A memo entry for "undefined". */
export const UNDEF: { v: Value | undefined } = { v: undefined };

/** Several results of a relation builtin (e.g. walk). */
export class Multi {
  constructor(readonly values: Value[]) {}
}

export interface EvalOptions {
  input?: Value;
  data?: Value;
  nowNs?: bigint;
  deadlineMs?: number;
  maxSteps?: number;
  strictBuiltinErrors?: boolean;
  builtinImpls?: Record<string, BuiltinImpl>;
}

/**
 * One evaluation, as the modules see it: its state and budget, and the operations each module provides to the
 * others (plan.ts: bodies and det(); expressions.ts; terms.ts; documents.ts; rules.ts; calls.ts; unify.ts).
 */
export interface Ev {
  readonly policy: CompiledPolicy;
  state: State;
  /** whether enumeration order is observable here (array comprehensions, the query itself) */
  ordered: boolean;
  /** nodes being evaluated (guards against recursion through `with` replacement) */
  readonly active: Set<RuleNode>;
  readonly prints: string[];
  readonly bctx: BuiltinContext;
  readonly strict: boolean;
  readonly impls?: Record<string, BuiltinImpl>;
  /** counts a step; throws policy_resource_limit / policy_timeout */
  tick(): void;

  // plan.ts
  evalBody(body: Expr[], i: number, f: Frame, k: K): boolean;
  det(t: Term, f: Frame): Det;
  // expressions.ts
  evalExpr(e: Expr, f: Frame, k: K): boolean;
  evalExprInner(e: Expr, f: Frame, k: K): boolean;
  someIn(e: Expr & { kind: 'somein' }, coll: Value, f: Frame, k: K): boolean;
  // terms.ts
  evalTerm(t: Term, f: Frame, k: KV): boolean;
  evalItems(items: Term[], i: number, f: Frame, acc: Value[], k: (vs: Value[]) => boolean): boolean;
  // documents.ts
  evalRef(t: Extract<Term, { type: 'ref' }>, f: Frame, k: KV): boolean;
  evalDataRef(terms: Term[], i: number, node: RuleNode, f: Frame, k: KV): boolean;
  dataValue(node: RuleNode): Value | undefined;
  baseAt(path: readonly string[]): Value | undefined;
  // rules.ts
  ruleValue(node: RuleNode): Value | undefined;
  partialLookup(node: RuleNode, key: Value): Value | undefined;
  evalRuleChain(rule: Rule, out: (v: Value, r: Rule) => void, args?: Value[]): void;
  // calls.ts
  evalCall(t: CallTerm, f: Frame, k: KV): boolean;
  callFunction(name: string, args: Value[], t: CallTerm): Value | Multi | undefined;
  callUserFunction(node: RuleNode, args: Value[]): Value | undefined;
  templateString(t: Extract<Term, { type: 'template' }>, f: Frame): string;
  valuesOf(t: Term, f: Frame): RegoSet;
  // unify.ts
  unifyTV(t: Term, v: Value, f: Frame, k: K): boolean;
  unifyTerms(a: Term, b: Term, f: Frame, k: K): boolean;
  isPattern(t: Term, f: Frame): boolean;
}
