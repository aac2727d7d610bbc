/** Rule values: complete rules with `else` chains and defaults, partial set/object rules, key lookups. */
import type { Rule, Term } from '../ast/types';
import { RegoError } from '../errors';
import type { RuleNode } from '../compiler/tree';
import { RegoSet, Value, equals, hashKey, makeObject } from '../value';
import { indexValue } from './values';
import { Ev, Frame, K, ND, UNDEF } from './core';

// ------------------------------------------------------------------ rules
export function ruleValue(ev: Ev, node: RuleNode): Value | undefined {
  if (ev.active.has(node)) throw new RegoError('rego_recursion_error', `rule ${node.pathStr} is recursive`, (node.rules[0] ?? node.defaultRule)!.loc);
  ev.active.add(node);
  const saved = ev.ordered;
  ev.ordered = false;
  try {
    switch (node.kind) {
      case 'complete':
        return completeValue(ev, node);
      case 'multi':
      case 'object':
        return partialValue(ev, node, node.rules);
      default:
        return undefined;
    }
  } finally {
    ev.active.delete(node);
    ev.ordered = saved;
  }
}

export function completeValue(ev: Ev, node: RuleNode): Value | undefined {
  let result: Value | undefined;
  for (const rule of node.rules) {
    evalRuleChain(ev, rule, (v, r) => {
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
    ev.evalTerm(d.head.value!, frame, (v) => ((result = v), true));
  }
  return result;
}

/** Evaluates a complete rule with its else chain; calls out(value) per solution of the first body that holds. */
export function evalRuleChain(ev: Ev, rule: Rule, out: (v: Value, r: Rule) => void, args?: Value[]): void {
  for (let r: Rule | undefined = rule; r; r = r.else) {
    let found = false;
    const frame: Frame = new Array(r.nslots ?? 0);
    const valueTerm = r.head.value!;
    const constant = valueTerm.type === 'scalar';
    const onBody = () =>
      ev.evalTerm(valueTerm, frame, (v) => {
        found = true;
        out(v, r!);
        return constant;
      });
    if (args) unifyArgs(ev, r.head.args!, args, 0, frame, () => ev.evalBody(r!.body, 0, frame, onBody));
    else ev.evalBody(r.body, 0, frame, onBody);
    if (found) return;
  }
}

export function unifyArgs(ev: Ev, pats: Term[], args: Value[], i: number, f: Frame, k: K): boolean {
  if (i === pats.length) return k();
  return ev.unifyTV(pats[i], args[i], f, () => unifyArgs(ev, pats, args, i + 1, f, k));
}

/** Value of partial set/object rules (all of them, or those selected by an index lookup). */
export function partialValue(ev: Ev, node: RuleNode, rules: Rule[]): Value | undefined {
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
      ev.evalBody(rule.body, 0, frame, () => {
        const lv = ev.det(leaf, frame);
        if (lv === ND) return ev.evalTerm(leaf, frame, insert);
        return lv === undefined ? false : insert(lv);
      });
      continue;
    }
    ev.evalBody(rule.body, 0, frame, () =>
      ev.evalItems(dyn, 0, frame, [], (keys) =>
        ev.evalTerm(leaf, frame, (lv) => {
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
export function partialLookup(ev: Ev, node: RuleNode, key: Value): Value | undefined {
  let constantKeys = node.children.size === 0 && node.rules.length > 1;
  if (constantKeys && ev.baseAt(node.path) !== undefined) constantKeys = false;
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
    const full = ev.dataValue(node);
    return full === undefined ? undefined : indexValue(full, key);
  }
  const memoKey = node.pathStr + '\u0001' + hashKey(key);
  const hit = ev.state.fnMemo.get(memoKey);
  if (hit) return hit.v;
  const rules = node.rules.filter((r) => equals((r.dyn![0] as { value: Value }).value, key));
  let v: Value | undefined;
  if (rules.length) {
    const saved = ev.ordered;
    ev.ordered = false;
    ev.active.add(node);
    try {
      v = indexValue(partialValue(ev, node, rules)!, key);
    } finally {
      ev.active.delete(node);
      ev.ordered = saved;
    }
  }
  ev.state.fnMemo.set(memoKey, v === undefined ? UNDEF : { v });
  return v;
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
