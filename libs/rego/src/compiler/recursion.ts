/** Recursion check: the dependency graph between rule nodes must be acyclic (rego_recursion_error). */
import type { Rule, Term } from '../ast/types';
import { RegoError } from '../errors';
import type { PolicyView } from './types';
import { RuleNode } from './tree';
import { walkBody, walkTerm } from './walk';

function ruleTerms(r: Rule): Term[] {
  const out: Term[] = [...(r.dyn ?? [])];
  if (r.head.key) out.push(r.head.key);
  if (r.head.value) out.push(r.head.value);
  for (const a of r.head.args ?? []) out.push(a);
  return out;
}

/** Rule nodes a data ref may read. */
export function refDeps(policy: PolicyView, t: Term, out: Set<RuleNode>): void {
  if (t.type === 'call' && t.name) {
    const f = policy.funcs.get(t.name);
    if (f) out.add(f);
    return;
  }
  if (t.type !== 'ref') return;
  const head = t.terms[0];
  if (head.type !== 'var' || head.name !== 'data' || head.slot !== -1) return;
  let node = policy.root;
  let i = 1;
  for (; i < t.terms.length; i++) {
    if (node.rules.length || node.defaultRule) break;
    const x = t.terms[i];
    if (x.type !== 'scalar') break;
    if (typeof x.value !== 'string' && typeof x.value !== 'number') return;
    const c = node.children.get(String(x.value));
    if (!c) return;
    node = c;
  }
  if (node.rules.length || node.defaultRule) out.add(node);
  else for (const n of node.ruleNodes()) out.add(n);
}

export function checkRecursion(policy: PolicyView, collected?: Map<RuleNode, Term[]>): RegoError[] {
  const deps = new Map<RuleNode, Set<RuleNode>>();
  const nodes = [...policy.root.ruleNodes()];
  for (const n of nodes) {
    const d = new Set<RuleNode>();
    const f = (t: Term) => refDeps(policy, t, d);
    const pre = collected?.get(n);
    if (pre) for (const t of pre) f(t);
    else {
      const rules = [...n.rules, ...(n.defaultRule ? [n.defaultRule] : [])];
      for (const r0 of rules) {
        for (let r: Rule | undefined = r0; r; r = r.else) {
          walkBody(r.body, f);
          for (const t of ruleTerms(r)) walkTerm(t, f);
        }
      }
    }
    deps.set(n, d);
  }
  const errors: RegoError[] = [];
  const state = new Map<RuleNode, number>(); // 1 visiting, 2 done
  const stack: RuleNode[] = [];
  const reported = new Set<RuleNode>();
  const visit = (n: RuleNode) => {
    state.set(n, 1);
    stack.push(n);
    for (const d of deps.get(n) ?? []) {
      const s = state.get(d);
      if (s === 1) {
        const cycle = stack.slice(stack.indexOf(d));
        if (!reported.has(d)) {
          reported.add(d);
          const r = d.rules[0] ?? d.defaultRule!;
          errors.push(new RegoError('rego_recursion_error', `rule ${d.pathStr} is recursive: ${[...cycle, d].map((x) => x.pathStr).join(' -> ')}`, r.loc));
        }
      } else if (!s) visit(d);
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const n of nodes) if (!state.get(n)) visit(n);
  return errors;
}
