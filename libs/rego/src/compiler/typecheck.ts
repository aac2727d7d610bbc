/** Static checks of builtin/function calls: arity and the types of literal arguments (rego_type_error). */
import type { CallTerm, Expr, Term } from '../ast/types';
import { RegoError } from '../errors';
import type { TypeSig } from '../builtins/contract';
import type { PolicyView } from './types';
import { walkBody } from './walk';
import { BigDec } from '../decimal';

function literalType(t: Term): string | undefined {
  switch (t.type) {
    case 'scalar':
      return t.value === null ? 'null' : typeof t.value === 'bigint' || t.value instanceof BigDec ? 'number' : typeof t.value;
    case 'array':
    case 'arraycomp':
      return 'array';
    case 'object':
    case 'objectcomp':
      return 'object';
    case 'set':
    case 'setcomp':
      return 'set';
    case 'template':
      return 'string';
    default:
      return undefined;
  }
}

function accepts(sig: TypeSig | undefined, type: string): boolean {
  if (!sig) return true;
  if (sig.type === 'any') {
    if (!sig.of) return true;
    const of = Array.isArray(sig.of) ? sig.of : [sig.of];
    return of.some((s) => accepts(s, type));
  }
  return sig.type === type;
}

function sigText(sig: TypeSig | undefined): string {
  if (!sig) return 'any';
  if (sig.type === 'any' && sig.of) return `any<${(Array.isArray(sig.of) ? sig.of : [sig.of]).map(sigText).join(', ')}>`;
  return sig.type;
}

/** Checks one resolved call: arity (an extra argument is the output) and the types of literal arguments. */
export function checkCall(t: CallTerm, policy: PolicyView): RegoError | undefined {
  if (!t.name || t.arity === undefined) return undefined;
  const decl = policy.funcs.has(t.name) ? undefined : policy.builtins.get(t.name);
  const n = t.args.length;
  if (decl?.variadic) return undefined;
  if (n !== t.arity && n !== t.arity + 1) {
    if (decl) {
      return new RegoError('rego_type_error', `${t.name}: arity mismatch\n\thave: (${t.args.map((a) => literalType(a) ?? 'any').join(', ')})\n\twant: (${decl.args.map(sigText).join(', ')})`, t.loc);
    }
    return new RegoError('rego_type_error', `function ${t.name} has arity ${t.arity}, got ${n} arguments`, t.loc);
  }
  if (!decl) return undefined;
  for (let i = 0; i < decl.args.length && i < n; i++) {
    const lt = literalType(t.args[i]);
    if (lt && !accepts(decl.args[i], lt)) {
      return new RegoError('rego_type_error', `${t.name}: invalid argument(s)\n\thave: (${t.args.map((a) => literalType(a) ?? 'any').join(', ')})\n\twant: (${decl.args.map(sigText).join(', ')})`, t.loc);
    }
  }
  return undefined;
}

/** Checks every call in a body (used where calls were not checked during resolution). */
export function checkTypes(body: Expr[], policy: PolicyView): RegoError[] {
  const errors: RegoError[] = [];
  walkBody(body, (t) => {
    if (t.type !== 'call') return;
    const e = checkCall(t, policy);
    if (e) errors.push(e);
  });
  return errors;
}
