/**
 * Strict-mode checks (OPA's `--strict`): unused assignments and declarations. OPA also applies two checks to
 * every Rego v1 module whether strict or not (its CheckKeywordOverrides and CheckDeprecatedBuiltins stages):
 * local variables shadowing `input`/`data`, and calls of deprecated builtins (`any`, `re_match`, `cast_*`, ...).
 * `v1Checks` are those; a v0 module gets them only in strict mode.
 */
import type { Expr, Rule, Term } from '../ast/types';
import { RegoError } from '../errors';
import type { PolicyView } from './types';
import { walkBody, walkTerm } from './walk';

export function strictChecks(rules: Rule[], policy: PolicyView, v1 = true): RegoError[] {
  const errors: RegoError[] = [];
  const uses = new Map<number, number>();
  const count = (t: Term) => {
    if (t.type === 'var' && t.slot !== undefined && t.slot >= 0) uses.set(t.slot, (uses.get(t.slot) ?? 0) + 1);
  };
  for (const r of rules) {
    walkBody(r.body, count);
    for (const t of [...(r.dyn ?? []), ...(r.head.args ?? []), r.head.key, r.head.value]) if (t) walkTerm(t, count);
  }
  const visitBody = (body: Expr[]) => {
    for (const e of body) {
      if (e.kind === 'assign') {
        walkTerm(e.left, (t) => {
          if (t.type !== 'var' || t.wildcard || t.slot === undefined || t.slot < 0) return;
          if ((uses.get(t.slot) ?? 0) <= 1) errors.push(new RegoError('rego_compile_error', `assigned var ${t.name} unused`, t.loc));
        });
      }
      if (e.kind === 'some') {
        for (const v of e.vars) {
          if (v.slot !== undefined && (uses.get(v.slot) ?? 0) <= 1) errors.push(new RegoError('rego_compile_error', `declared var ${v.name} unused`, v.loc));
        }
      }
    }
  };
  for (const r of rules) {
    visitBody(r.body);
    const check = (t: Term) => {
      if (t.type === 'arraycomp' || t.type === 'setcomp' || t.type === 'objectcomp') visitBody(t.body);
    };
    walkBody(r.body, check);
    for (const t of [...(r.dyn ?? []), r.head.key, r.head.value]) if (t) walkTerm(t, check);
  }
  if (!v1) errors.push(...v1Checks(rules, policy));
  return errors;
}

/** Shadowed `input`/`data` and deprecated builtin calls: errors in every v1 module (and in strict mode). */
export function v1Checks(rules: Rule[], policy: PolicyView): RegoError[] {
  const errors: RegoError[] = [];
  const check = (t: Term) => {
    if (t.type === 'var' && (t.name === 'input' || t.name === 'data') && t.slot !== undefined && t.slot >= 0) {
      errors.push(new RegoError('rego_compile_error', `variables must not shadow ${t.name} (use a different variable name)`, t.loc));
    }
    if (t.type === 'call' && t.name && policy.builtins.get(t.name)?.deprecated && !policy.funcs.has(t.name)) {
      errors.push(new RegoError('rego_type_error', `deprecated built-in function calls in expression: ${t.name}`, t.loc));
    }
  };
  for (const r of rules) {
    walkBody(r.body, check);
    for (const t of [...(r.dyn ?? []), ...(r.head.args ?? []), r.head.key, r.head.value]) if (t) walkTerm(t, check);
  }
  return errors;
}
