import { BUILTINS } from './builtins/registry';
import { fromJSON, toJSON } from './value';

/**
 * Every builtin the engine implements, as plain functions over JSON values: what a host of OPA's wasm supplies
 * for the builtins a compiled policy leaves to it (same implementations as the engine's). `now_ns` is fixed.
 */
export function hostBuiltins(nowNs: bigint): Record<string, (...args: unknown[]) => unknown> {
  const out: Record<string, (...args: unknown[]) => unknown> = {};
  for (const [name, decl] of BUILTINS) {
    const impl = decl.impl;
    if (!impl) continue;
    out[name] = (...args: unknown[]) => {
      const value = impl(args.map(fromJSON), { nowNs, strict: false, print: () => undefined, rand: {}, cache: new Map() });
      return value === undefined ? undefined : toJSON(value);
    };
  }
  return out;
}
