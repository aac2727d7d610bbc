/**
 * Calls: builtins (with `with` replacements and per-evaluation implementations), user functions (memoised per
 * argument tuple, indexed by a constant first argument), print and template strings.
 */
import type { CallTerm, Rule, TemplateTerm, Term } from '../ast/types';
import { RegoError, isJsResourceError } from '../errors';
import type { RuleNode } from '../compiler/tree';
import { BuiltinError, BuiltinHaltError, BuiltinLimitError, BuiltinTypeError } from '../builtins/errors';
import { RegoSet, Value, equals, hashKey, objEntries } from '../value';
import { BigDec } from '../decimal';
import { indexValue, printText } from './values';
import { CallMemo, Ev, Frame, KV, Multi, UNDEF } from './core';
import { unmockedState } from './state';

const NO_ARGS = Symbol('no arguments');

// ------------------------------------------------------------------ calls
export function evalCall(ev: Ev, t: CallTerm, f: Frame, k: KV): boolean {
  if (t.constValue !== undefined) return k(t.constValue);
  const name = t.name!;
  const arity = t.arity ?? t.args.length;
  const nIn = Math.min(arity, t.args.length);
  if (name === 'print') return evalPrint(ev, t, f, k);
  return ev.evalItems(nIn === t.args.length ? t.args : t.args.slice(0, nIn), 0, f, [], (args) => {
    const result = callFunction(ev, name, args, t);
    if (result === undefined) return false;
    if (result instanceof Multi) {
      for (const r of result.values) {
        if (t.args.length > nIn ? ev.unifyTV(t.args[nIn], r, f, () => k(true)) : k(r)) return true;
      }
      return false;
    }
    if (t.args.length > nIn) return ev.unifyTV(t.args[nIn], result, f, () => k(true));
    return k(result);
  });
}

/** All values a term produces, as a set (empty when undefined): how OPA feeds print and template strings. */
export function valuesOf(ev: Ev, t: Term, f: Frame): RegoSet {
  const out = new RegoSet();
  ev.evalTerm(t, f, (v) => (out.add(v), false));
  return out;
}

/** Template string: literal parts and the values of the embedded terms (`<undefined>` when there are none). */
export function templateString(ev: Ev, t: TemplateTerm, f: Frame): string {
  const parts: Value[] = t.parts.map((p) => (typeof p === 'string' ? p : valuesOf(ev, p, f)));
  if (ev.policy.builtins.get('internal.template_string')?.impl) {
    const r = callFunction(ev, 'internal.template_string', [parts], t as unknown as CallTerm);
    if (typeof r === 'string') return r;
  }
  let s = '';
  for (const p of parts) s += typeof p === 'string' ? p : p instanceof RegoSet && p.size ? printText(p.sorted()[0]) : '<undefined>';
  return s;
}

export function evalPrint(ev: Ev, t: CallTerm, f: Frame, k: KV): boolean {
  const sets: Value[] = [];
  for (const a of t.args) {
    let vs = new RegoSet();
    try {
      vs = valuesOf(ev, a, f);
    } catch (e) {
      if (!(e instanceof RegoError) || e.code === 'policy_timeout' || e.code === 'policy_resource_limit') throw e;
    }
    sets.push(vs);
  }
  if (ev.policy.builtins.get('print')?.impl && !ev.state.funcs?.has('print')) {
    callFunction(ev, 'print', sets, t);
  } else {
    ev.prints.push(sets.map((x) => (x instanceof RegoSet && x.size ? printText(x.sorted()[0]) : '<undefined>')).join(' '));
  }
  return k(true);
}

/** Calls a user function or builtin by resolved name (honouring `with` replacements). */
export function callFunction(ev: Ev, name: string, args: Value[], t: CallTerm): Value | Multi | undefined {
  const ov = ev.state.funcs?.get(name);
  if (ov) {
    if (ov.value !== undefined) return ov.value;
    if (ov.func) {
      // a replacement runs without any mocks (it may call the original it replaces)
      const saved = ev.state;
      ev.state = unmockedState(saved);
      try {
        return callFunction(ev, ov.func, args, t);
      } finally {
        ev.state = saved;
      }
    }
  }
  const fn = ev.policy.funcs.get(name);
  if (fn) return callUserFunction(ev, fn, args);
  if (name === 'internal.member_2') return memberOf(args[0], args[1]);
  if (name === 'internal.member_3') return memberWithKey(args[0], args[1], args[2]);
  const decl = ev.policy.builtins.get(name);
  const impl = ev.impls?.[name] ?? decl?.impl;
  if (!impl) throw new RegoError('eval_builtin_error', `${name}: builtin not implemented`, t.loc);
  let r: Value | undefined;
  try {
    r = impl(args, ev.bctx);
  } catch (e) {
    if (e instanceof RegoError) throw e;
    // a protection, never an answer: halts whatever strict_builtin_errors says (see README, "Limits")
    if (e instanceof BuiltinLimitError || isJsResourceError(e)) throw new RegoError('policy_resource_limit', `${name}: ${e.message}`, t.loc);
    if (e instanceof BuiltinHaltError) throw new RegoError('eval_builtin_error', `${name}: ${e.message}`, t.loc);
    if (e instanceof BuiltinTypeError || e instanceof BuiltinError) {
      if (!ev.strict) return undefined;
      // OPA reports operand errors as type errors
      const code = e instanceof BuiltinTypeError || /^operand \d+ /.test(e.message) ? 'eval_type_error' : 'eval_builtin_error';
      throw new RegoError(code, `${name}: ${e.message}`, t.loc);
    }
    if (ev.strict) throw new RegoError('eval_builtin_error', `${name}: ${(e as Error).message}`, t.loc);
    return undefined;
  }
  if (r !== undefined && decl?.relation) return new Multi(r as Value[]);
  return r;
}

export function callUserFunction(ev: Ev, node: RuleNode, args: Value[]): Value | undefined {
  // memo per function, then one Map level per argument: scalars by value, composites by identity (hashing a
  // large input per call would cost more than evaluating the function; equal-but-distinct composites only miss)
  let m = ev.state.calls.get(node);
  if (!m) ev.state.calls.set(node, (m = new Map()));
  const last = args.length - 1;
  for (let i = 0; i < last; i++) {
    let n = m.get(args[i]) as CallMemo | undefined;
    if (!n) m.set(args[i], (n = new Map()));
    m = n;
  }
  const lastKey = last >= 0 ? args[last] : NO_ARGS;
  const memo = m.get(lastKey) as { v: Value | undefined } | undefined;
  if (memo) return memo.v;
  const result = evalFunction(ev, node, args);
  m.set(lastKey, result === undefined ? UNDEF : { v: result });
  return result;
}

export function evalFunction(ev: Ev, node: RuleNode, args: Value[]): Value | undefined {
  let result: Value | undefined;
  const saved = ev.ordered;
  ev.ordered = false;
  try {
    for (const rule of functionCandidates(node, args)) {
      ev.evalRuleChain(
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
    ev.ordered = saved;
  }
  if (result === undefined && node.defaultRule) {
    const d = node.defaultRule;
    const frame: Frame = new Array(d.nslots ?? 0);
    ev.evalTerm(d.head.value!, frame, (v) => ((result = v), true));
  }
  return result;
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

function memberOf(x: Value, coll: Value): Value {
  if (typeof coll !== 'object' || coll === null || coll instanceof BigDec) return false;
  if (coll instanceof RegoSet) return coll.has(x);
  if (Array.isArray(coll)) return coll.some((y) => equals(x, y));
  for (const [, v] of objEntries(coll)) if (equals(x, v)) return true;
  return false;
}

function memberWithKey(key: Value, x: Value, coll: Value): Value {
  if (typeof coll !== 'object' || coll === null || coll instanceof BigDec) return false;
  if (coll instanceof RegoSet) return coll.has(x) && equals(key, x);
  const v = indexValue(coll, key);
  return v !== undefined && equals(v, x);
}
