/** Generic AST walkers used by the checks. */
import type { Expr, Term } from '../ast/types';

export function walkTerm(t: Term, f: (t: Term) => void): void {
  f(t);
  switch (t.type) {
    case 'ref':
      for (const x of t.terms) walkTerm(x, f);
      break;
    case 'array':
    case 'set':
      for (const x of t.items) walkTerm(x, f);
      break;
    case 'object':
      for (const [k, v] of t.items) {
        walkTerm(k, f);
        walkTerm(v, f);
      }
      break;
    case 'call':
      for (const x of t.args) walkTerm(x, f);
      break;
    case 'template':
      for (const x of t.parts) if (typeof x !== 'string') walkTerm(x, f);
      break;
    case 'arraycomp':
    case 'setcomp':
      walkTerm(t.term, f);
      walkBody(t.body, f);
      break;
    case 'objectcomp':
      walkTerm(t.key, f);
      walkTerm(t.value, f);
      walkBody(t.body, f);
      break;
    default:
      break;
  }
}

export function walkExpr(e: Expr, f: (t: Term) => void): void {
  switch (e.kind) {
    case 'term':
      walkTerm(e.term, f);
      break;
    case 'unify':
    case 'assign':
      walkTerm(e.left, f);
      walkTerm(e.right, f);
      break;
    case 'somein':
      if (e.key) walkTerm(e.key, f);
      walkTerm(e.value, f);
      walkTerm(e.collection, f);
      break;
    case 'every':
      walkTerm(e.domain, f);
      walkBody(e.body, f);
      break;
    case 'some':
      break;
  }
  for (const w of e.with) {
    walkTerm(w.target, f);
    walkTerm(w.value, f);
  }
}

export function walkBody(body: Expr[], f: (t: Term) => void): void {
  for (const e of body) walkExpr(e, f);
}
