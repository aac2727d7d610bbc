/** array.* builtins. */
import { Value } from '../value';
import type { BuiltinImpl } from './contract';
import { arr, smallInt } from './operands';

export const ARRAYS: Record<string, BuiltinImpl> = {
  'array.concat': (args) => arr(args, 0).concat(arr(args, 1)),
  'array.slice': (args) => {
    const a = arr(args, 0);
    let start = smallInt(args, 1);
    let stop = smallInt(args, 2);
    if (start < 0) start = 0;
    if (stop > a.length) stop = a.length;
    if (start >= stop) return [];
    return a.slice(start, stop);
  },
  'array.reverse': (args) => arr(args, 0).slice().reverse(),
  // Flattens one level of nesting only, as OPA does.
  'array.flatten': (args) => {
    const out: Value[] = [];
    for (const x of arr(args, 0)) {
      if (Array.isArray(x)) for (const y of x) out.push(y);
      else out.push(x);
    }
    return out;
  },
};
