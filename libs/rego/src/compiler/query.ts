/** Compiles an ad-hoc query against a policy: names resolved, closures localized, body ordered for safety. */
import { RegoError, RegoErrors } from '../errors';
import { parseQuery } from '../parser/parser';
import type { Term } from '../ast/types';
import { Resolver, ResolveEnv } from './resolve';
import { localizeClosureVars, SafetyChecker, termVars } from './safety';
import { checkCall } from './typecheck';
import type { CompiledQuery, PolicyView } from './types';

export function compileQuery(policy: PolicyView, src: string): CompiledQuery {
  const body = parseQuery(src, 'query');
  const errors: RegoError[] = [];
  const env: ResolveEnv = {
    pkg: null,
    ruleNames: new Set(),
    imports: new Map(),
    isFunction: (n) => policy.funcs.has(n),
    arityOf: (n) => policy.arityOf(n),
    checkCall: (t) => checkCall(t, policy),
    errors,
  };
  const r = new Resolver(env);
  const resolved = r.resolveQuery(body);
  localizeClosureVars(resolved, new Set());
  const sc = new SafetyChecker(r.slotNames);
  const ordered = sc.reorder(resolved, new Set()).body;
  errors.push(...sc.errors);
  if (errors.length) throw errors.length === 1 ? errors[0] : new RegoErrors(errors);
  const outputs: Array<[string, number]> = [];
  const seen = new Set<string>();
  const collect = (t: Term) => {
    const vs = new Set<number>();
    termVars(t, vs);
    for (const s of vs) {
      const n = r.slotNames[s];
      if (!n.startsWith('_$') && !seen.has(n) && r.top.lookup(n) === s) {
        seen.add(n);
        outputs.push([n, s]);
      }
    }
  };
  for (const e of resolved) {
    if (e.kind === 'term') collect(e.term);
    else if (e.kind === 'unify' || e.kind === 'assign') {
      collect(e.left);
      collect(e.right);
    } else if (e.kind === 'somein') {
      if (e.key) collect(e.key);
      collect(e.value);
      collect(e.collection);
    } else if (e.kind === 'some') for (const v of e.vars) collect(v);
    else if (e.kind === 'every') collect(e.domain);
  }
  return { body: ordered, nslots: r.nslots, slotNames: r.slotNames, outputs };
  }
