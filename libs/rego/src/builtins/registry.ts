/**
 * Builtin registry: every OPA builtin (name, type signature, optional implementation).
 * Signatures come from OPA's capabilities (signatures.ts, generated); implementations live in one file per family.
 */
import { SIGNATURES } from './signatures';
import { BuiltinError, BuiltinTypeError, BuiltinHaltError } from './errors';
import { IMPLS } from './impls';
import type { BuiltinDecl } from './contract';

export type { BuiltinContext, BuiltinDecl, BuiltinImpl, SigEntry, TypeSig } from './contract';

export { BuiltinError, BuiltinTypeError, BuiltinHaltError };

function build(): Map<string, BuiltinDecl> {
  const m = new Map<string, BuiltinDecl>();
  for (const s of SIGNATURES) {
    const d: BuiltinDecl = { ...s };
    const impl = IMPLS[s.name];
    if (impl) d.impl = impl;
    m.set(s.name, d);
  }
  return m;
}

/** Every builtin by name, e.g. "count", "strings.replace_n", "plus" (infix +). */
export const BUILTINS: Map<string, BuiltinDecl> = build();

/** Infix operator -> builtin name (`==` equal, `+` plus, `in` internal.member_2 (first declared wins), ...). */
export const INFIX: Map<string, string> = new Map();
for (const s of SIGNATURES) if (s.infix && !INFIX.has(s.infix)) INFIX.set(s.infix, s.name);
