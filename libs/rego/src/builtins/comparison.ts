/** Comparison builtins (infix ==, !=, <, <=, >, >=), using OPA's total order over values. */
import { compare, equals } from '../value';
import type { BuiltinImpl } from './contract';

export const COMPARISON: Record<string, BuiltinImpl> = {
  equal: ([a, b]) => equals(a, b),
  neq: ([a, b]) => !equals(a, b),
  lt: ([a, b]) => compare(a, b) < 0,
  lte: ([a, b]) => compare(a, b) <= 0,
  gt: ([a, b]) => compare(a, b) > 0,
  gte: ([a, b]) => compare(a, b) >= 0,
};
