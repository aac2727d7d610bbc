/**
 * Parameterized tests, as OPA's test runner compiles them (OPA >= 1.2): a test rule whose head has a dynamic
 * tail (`test_concat[tc.note] if { some tc in cases; ... }`) is one test with a sub-result per case. The
 * cases that pass are the keys of the rule's object; to also name those that were reached but failed, the
 * runner has the body call `internal.test_case([<case terms>])` at the earliest point where the vars of the
 * case terms are bound: right after the first expression that mentions each of them (safety ordering then
 * keeps it after whatever binds them). A rule that already calls `internal.test_case` is left as written.
 */
import type { Expr, Module, Rule, Term } from '../ast/types';

export const TEST_PREFIX = 'test_';
export const TEST_CASE_BUILTIN = 'internal.test_case';

/** The case terms of a parameterized test rule (its head after the name), or undefined for other rules. */
export function testCaseTerms(rule: Rule): Term[] | undefined {
  const head = rule.head;
  const first = head.ref[0];
  if (head.args || head.contains || first?.type !== 'var' || !first.name.startsWith(TEST_PREFIX)) return undefined;
  const tail = head.ref.slice(1);
  if (!tail.some((t) => !(t.type === 'scalar' && typeof t.value === 'string'))) return undefined;
  return tail;
}

export function injectTestCaseCalls(modules: Module[]): void {
  for (const m of modules) for (const rule of m.rules) inject(rule);
}

function inject(rule: Rule): void {
  const cases = testCaseTerms(rule);
  if (!cases || callsTestCase(rule.body)) return;
  const names = new Set<string>();
  for (const t of cases) collectVars(t, names);
  let below = -1;
  for (const name of names) {
    const first = rule.body.findIndex((e) => mentions(e, name));
    if (first > below) below = first;
  }
  const loc = rule.head.loc;
  const call: Expr = {
    kind: 'term',
    negated: false,
    with: [],
    loc,
    term: {
      type: 'call',
      op: { type: 'ref', terms: [{ type: 'var', name: 'internal', loc }, { type: 'scalar', value: 'test_case', loc }], loc },
      args: [{ type: 'array', items: cases.map((t) => clone(t)), loc }],
      loc,
    },
  };
  rule.body.splice(below + 1, 0, call);
}

/** A deep copy of a term's tree (the compiler annotates nodes in place); values such as BigDecs are shared. */
function clone<T>(node: T): T {
  if (Array.isArray(node)) return node.map(clone) as T;
  if (!node || typeof node !== 'object' || Object.getPrototypeOf(node) !== Object.prototype) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'loc' ? v : clone(v);
  return out as T;
}

function callsTestCase(body: Expr[]): boolean {
  let found = false;
  walk(body, (n) => {
    const c = n as { type?: string; op?: { terms?: Array<{ name?: string; value?: unknown }> } };
    if (c.type === 'call' && c.op?.terms?.[0]?.name === 'internal' && c.op.terms[1]?.value === 'test_case') found = true;
  });
  return found;
}

function collectVars(t: Term, out: Set<string>): void {
  walk(t, (n) => {
    const v = n as { type?: string; name?: string; wildcard?: boolean };
    if (v.type === 'var' && v.name && v.name !== '_' && !v.wildcard) out.add(v.name);
  });
}

function mentions(e: Expr, name: string): boolean {
  let found = false;
  walk(e, (n) => {
    const v = n as { type?: string; name?: string };
    if (v.type === 'var' && v.name === name) found = true;
  });
  return found;
}

function walk(node: unknown, visit: (n: object) => void): void {
  if (Array.isArray(node)) {
    for (const x of node) walk(x, visit);
    return;
  }
  if (!node || typeof node !== 'object') return;
  visit(node);
  for (const [k, v] of Object.entries(node)) if (k !== 'loc' && v && typeof v === 'object') walk(v, visit);
}
