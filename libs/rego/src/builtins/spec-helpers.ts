/** Test helpers: call a builtin by name with a fixed context, as the evaluator would. */
import { BUILTINS, BuiltinContext } from './registry';
import { Value, toJSON } from '../value';

export function testContext(over: Partial<BuiltinContext> = {}): BuiltinContext & { printed: string[] } {
  const printed: string[] = [];
  return {
    nowNs: 1700000000000000000n,
    strict: true,
    print: (m) => printed.push(m),
    rand: {},
    cache: new Map(),
    printed,
    ...over,
  };
}

/** Raw result of a builtin (Rego value or undefined). */
export function callRaw(name: string, args: Value[], ctx: BuiltinContext = testContext()): Value | undefined {
  const d = BUILTINS.get(name);
  if (!d?.impl) throw new Error(`no implementation for ${name}`);
  return d.impl(args, ctx);
}

/** Result as JSON (sets become sorted arrays) for easy comparison. */
export function call(name: string, ...args: Value[]): unknown {
  const r = callRaw(name, args);
  return r === undefined ? undefined : toJSON(r);
}
