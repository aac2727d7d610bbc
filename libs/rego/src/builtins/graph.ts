/** walk (relation), graph.reachable and graph.reachable_paths. */
import { Value, PlainObject, RegoObject, RegoSet, objGet, makeSet } from '../value';
import { BigDec } from '../decimal';
import type { BuiltinImpl } from './contract';
import { obj, typeErr } from './operands';

/**
 * Every [path, value] pair under v, parents before children (the root first, with path []).
 * Sets use their elements as path keys (in OPA order); arrays their indices.
 */
export function walkPairs(v: Value): Array<[Value[], Value]> {
  const out: Array<[Value[], Value]> = [];
  const rec = (x: Value, path: Value[]): void => {
    out.push([path, x]);
    if (typeof x !== 'object' || x === null || x instanceof BigDec) return;
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) {
        const p = path.slice();
        p.push(i);
        rec(x[i], p);
      }
    } else if (x instanceof RegoSet) {
      for (const e of x.sorted()) {
        const p = path.slice();
        p.push(e);
        rec(e, p);
      }
    } else if (x instanceof RegoObject) {
      for (const [k, e] of x.entries()) {
        const p = path.slice();
        p.push(k);
        rec(e, p);
      }
    } else {
      for (const k in x) {
        if (!Object.prototype.hasOwnProperty.call(x, k)) continue;
        const p = path.slice();
        p.push(k);
        rec((x as PlainObject)[k], p);
      }
    }
  };
  rec(v, []);
  return out;
}

/** Edges of a node: array or set elements; anything else counts as no edges. */
function edgesOf(e: Value): Value[] {
  if (Array.isArray(e)) return e;
  if (e instanceof RegoSet) return e.values();
  return [];
}

function initial(v: Value): Value[] {
  if (Array.isArray(v)) return v;
  if (v instanceof RegoSet) return v.values();
  throw typeErr(2, v, '{array, set}');
}

/** Extends `path` through `root`, adding each maximal path (ended by a leaf, a cycle or an unknown node). */
function buildPaths(g: PlainObject | RegoObject, root: Value, path: Value[], reached: RegoSet, out: RegoSet): void {
  const e = objGet(g, root);
  if (e === undefined) {
    out.add(path);
    return;
  }
  const p = [...path, root];
  const edges = edgesOf(e);
  if (edges.length === 0) {
    out.add(p);
    return;
  }
  const r = new RegoSet(reached.values()).add(root);
  for (const n of edges) {
    if (r.has(n)) out.add(p);
    else buildPaths(g, n, p, r, out);
  }
}

export const GRAPH: Record<string, BuiltinImpl> = {
  /** Relation: returns all [path, value] outputs as an array; the evaluator iterates them (see walkPairs). */
  walk: ([v]) => walkPairs(v) as unknown as Value[],
  'graph.reachable': (args) => {
    const g = obj(args, 0);
    const reached = new RegoSet();
    const queue = initial(args[1]).slice();
    for (let i = 0; i < queue.length; i++) {
      const n = queue[i];
      const e = objGet(g, n);
      if (e === undefined || reached.has(n)) continue;
      for (const m of edgesOf(e)) if (!reached.has(m)) queue.push(m);
      reached.add(n);
    }
    return reached;
  },
  'graph.reachable_paths': (args) => {
    const g = obj(args, 0);
    const out = new RegoSet();
    for (const n of initial(args[1])) {
      const e = objGet(g, n);
      if (e === undefined) continue;
      const edges = edgesOf(e);
      if (edges.length === 0) out.add([n]);
      for (const m of edges) buildPaths(g, m, [n], makeSet([n]), out);
    }
    return out;
  },
};
