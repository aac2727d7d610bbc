/**
 * The contract between the evaluator and builtin implementations: type signatures (as OPA's capabilities JSON
 * writes them), declarations and the implementation signature. A leaf: it imports nothing but the value model,
 * so builtin families, the registry, the compiler and the evaluator can all depend on it without a cycle.
 */
import type { Value } from '../value';

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

