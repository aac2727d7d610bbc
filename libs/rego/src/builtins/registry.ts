/**
 * Builtin registry: every OPA builtin (name, type signature, optional implementation).
 * Signatures come from OPA's capabilities (signatures.ts, generated); implementations live in one file per family.
 */
import type { Value } from '../value';
import { SIGNATURES } from './signatures';
import { BuiltinError, BuiltinTypeError, BuiltinHaltError } from './errors';
import { IMPLS } from './impls';

export { BuiltinError, BuiltinTypeError, BuiltinHaltError };

/**
 * Type signature, mirroring OPA's capabilities JSON:
 * - `{type:'any'}`; `{type:'any', of:[...]}` is a union of the listed types.
 * - `{type:'array', static?:[...elements], dynamic?: elementType}`
 * - `{type:'object', static?:[{key, value}], dynamic?: {key, value}}`
 * - `{type:'set', of: elementType}`
 * - `{type:'function', args, result}` (not used by builtins today)
 */
export interface TypeSig {
  type: 'any' | 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object' | 'set' | 'function';
  of?: TypeSig | TypeSig[];
  static?: TypeSig[] | Array<{ key: unknown; value: TypeSig }>;
  dynamic?: TypeSig | { key: TypeSig; value: TypeSig };
  key?: unknown;
  value?: TypeSig;
  args?: TypeSig[];
  result?: TypeSig;
}

export interface BuiltinContext {
  nowNs: bigint; // time.now_ns(), fixed per evaluation
  strict: boolean; // strict_builtin_errors: raise instead of undefined
  print: (msg: string) => void;
  rand: { seed?: number }; // rand.intn must be deterministic per (str, n) within one evaluation
  cache: Map<string, unknown>; // per-evaluation cache
  metadata?: { chain: unknown[]; rule: unknown }; // for rego.metadata.chain / rule, filled by the evaluator
}

/** Returns the result, or undefined for "no result" (the call is undefined). */
export type BuiltinImpl = (args: Value[], ctx: BuiltinContext) => Value | undefined;

export interface BuiltinDecl {
  name: string;
  args: TypeSig[];
  result?: TypeSig;
  variadic?: TypeSig;
  relation?: boolean; // e.g. walk: the impl returns an array of all results (see RELATIONS)
  infix?: string;
  impl?: BuiltinImpl;
  nondeterministic?: boolean;
  deprecated?: boolean;
}

/** One generated signature entry (signatures.ts). */
export interface SigEntry {
  name: string;
  args: TypeSig[];
  result?: TypeSig;
  variadic?: TypeSig;
  infix?: string;
  relation?: boolean;
  nondeterministic?: boolean;
  deprecated?: boolean;
}

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
