/** object.* builtins and the JSON-document editors json.filter / json.remove / json.patch. */
import {
  Value,
  PlainObject,
  RegoObject,
  RegoSet,
  isObject,
  objGet,
  objKeys,
  objEntries,
  makeObject,
  equals,
  typeName,
  hashKey,
} from '../value';
import type { BuiltinImpl } from './contract';
import { BuiltinError, BuiltinTypeError } from './errors';
import { obj, typeErr, oneOf, arr } from './operands';

type Obj = PlainObject | RegoObject;

/** One step into a collection: object key, array index, or set member. */
export function child(v: Value, k: Value): Value | undefined {
  if (Array.isArray(v)) {
    if (typeof k === 'number' && Number.isInteger(k) && k >= 0 && k < v.length) return v[k];
    return undefined;
  }
  if (v instanceof RegoSet) return v.has(k) ? k : undefined;
  if (isObject(v)) return objGet(v, k);
  return undefined;
}

/** Keys given as an array, set, or object (its keys). */
function keyList(args: Value[], i: number): Value[] {
  const v = args[i];
  if (Array.isArray(v)) return v;
  if (v instanceof RegoSet) return v.values();
  if (isObject(v)) return objKeys(v);
  throw typeErr(i + 1, v, oneOf('object', 'set', 'array'));
}

/** Deep merge: nested objects merge, otherwise b wins. */
export function unionObjects(a: Obj, b: Obj): Obj {
  const out: [Value, Value][] = objEntries(a);
  const idx = new RegoObject();
  out.forEach(([k], i) => idx.set(k, i));
  for (const [k, v] of objEntries(b)) {
    const at = idx.get(k);
    if (at === undefined) {
      idx.set(k, out.length);
      out.push([k, v]);
    } else {
      const prev = out[at as number][1];
      out[at as number] = [k, isObject(prev) && isObject(v) ? unionObjects(prev, v) : v];
    }
  }
  return makeObject(out);
}

function setSubset(sup: RegoSet, sub: RegoSet): boolean {
  for (const k of sub.map.keys()) if (!sup.map.has(k)) return false;
  return true;
}

/** Contiguous sub-array search. */
function arraySubset(sup: Value[], sub: Value[]): boolean {
  if (sub.length === 0) return true;
  for (let i = 0; i + sub.length <= sup.length; i++) {
    let ok = true;
    for (let j = 0; j < sub.length && ok; j++) ok = equals(sup[i + j], sub[j]);
    if (ok) return true;
  }
  return false;
}

function isSubset(sup: Value, sub: Value): boolean {
  if (isObject(sup) && isObject(sub)) {
    for (const [k, v] of objEntries(sub)) {
      const w = objGet(sup, k);
      if (w === undefined) return false;
      if (isObject(w) && isObject(v)) {
        if (!isSubset(w, v)) return false;
      } else if (w instanceof RegoSet && v instanceof RegoSet) {
        if (!setSubset(w, v)) return false;
      } else if (Array.isArray(w) && Array.isArray(v)) {
        if (!arraySubset(w, v)) return false;
      } else if (!equals(w, v)) return false;
    }
    return true;
  }
  if (sup instanceof RegoSet && sub instanceof RegoSet) return setSubset(sup, sub);
  if (Array.isArray(sup) && Array.isArray(sub)) return arraySubset(sup, sub);
  if (Array.isArray(sup) && sub instanceof RegoSet) {
    const s = new RegoSet(sup);
    return setSubset(s, sub);
  }
  throw new BuiltinError('both arguments to object.subset must be of the same type or array and set');
}

// ---------------------------------------------------------------------------------------------------------------
// Paths for json.filter / json.remove / json.patch: "a/b/0" strings (JSON-pointer escapes) or arrays of keys.

function parsePath(p: Value, pos: number): Value[] {
  if (typeof p === 'string') {
    const t = p.replace(/^\/+/, '').replace(/\/+$/, '');
    if (t === '') return [];
    return t.split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  if (Array.isArray(p)) return p;
  throw new BuiltinTypeError(`operand ${pos} must be one of {set, array} containing string paths or array of path segments but got ${typeName(p)}`);
}

function pathList(args: Value[], i: number): Value[][] {
  const v = args[i];
  let items: Value[];
  if (Array.isArray(v)) items = v;
  else if (v instanceof RegoSet) items = v.values();
  else throw typeErr(i + 1, v, oneOf('set', 'array'));
  return items.map((p) => parsePath(p, i + 1));
}

/** Array segment from a path: number, or a string of digits. */
function arrayIndex(seg: Value): number | undefined {
  if (typeof seg === 'number' && Number.isInteger(seg)) return seg;
  if (typeof seg === 'string' && /^(0|[1-9][0-9]*)$/.test(seg)) return Number(seg);
  return undefined;
}

interface PathTree {
  leaf: boolean;
  kids: Map<string, { seg: Value; tree: PathTree }>;
}

function buildTree(paths: Value[][]): PathTree {
  const root: PathTree = { leaf: false, kids: new Map() };
  for (const p of paths) {
    let t = root;
    for (const seg of p) {
      const k = hashKey(seg);
      let n = t.kids.get(k);
      if (!n) {
        n = { seg, tree: { leaf: false, kids: new Map() } };
        t.kids.set(k, n);
      }
      t = n.tree;
    }
    t.leaf = true;
  }
  return root;
}

function filterBy(v: Value, t: PathTree): Value | undefined {
  if (t.leaf) return v;
  if (isObject(v)) {
    const out: [Value, Value][] = [];
    for (const { seg, tree } of t.kids.values()) {
      const c = objGet(v, seg);
      if (c === undefined) continue;
      const f = filterBy(c, tree);
      if (f !== undefined) out.push([seg, f]);
    }
    return makeObject(out);
  }
  if (Array.isArray(v)) {
    const out: Value[] = [];
    const keep = new Map<number, PathTree>();
    for (const { seg, tree } of t.kids.values()) {
      const i = arrayIndex(seg);
      if (i !== undefined && i < v.length) keep.set(i, tree);
    }
    for (let i = 0; i < v.length; i++) {
      const tree = keep.get(i);
      if (!tree) continue;
      const f = filterBy(v[i], tree);
      if (f !== undefined) out.push(f);
    }
    return out;
  }
  if (v instanceof RegoSet) {
    const out = new RegoSet();
    for (const { seg, tree } of t.kids.values()) {
      if (!v.has(seg)) continue;
      const f = filterBy(seg, tree);
      if (f !== undefined) out.add(f);
    }
    return out;
  }
  return undefined;
}

function removeBy(v: Value, t: PathTree): Value | undefined {
  if (t.leaf) return undefined;
  if (t.kids.size === 0) return v;
  if (isObject(v)) {
    const out: [Value, Value][] = [];
    for (const [k, c] of objEntries(v)) {
      const n = findKid(t, k);
      if (!n) out.push([k, c]);
      else {
        const r = removeBy(c, n);
        if (r !== undefined) out.push([k, r]);
      }
    }
    return makeObject(out);
  }
  if (Array.isArray(v)) {
    const out: Value[] = [];
    v.forEach((c, i) => {
      const n = findKid(t, i) ?? findKid(t, String(i));
      if (!n) out.push(c);
      else {
        const r = removeBy(c, n);
        if (r !== undefined) out.push(r);
      }
    });
    return out;
  }
  if (v instanceof RegoSet) {
    const out = new RegoSet();
    for (const c of v.values()) {
      const n = findKid(t, c);
      if (!n) out.add(c);
      else {
        const r = removeBy(c, n);
        if (r !== undefined) out.add(r);
      }
    }
    return out;
  }
  return v;
}

function findKid(t: PathTree, key: Value): PathTree | undefined {
  for (const { seg, tree } of t.kids.values()) if (equals(seg, key)) return tree;
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// json.patch (RFC 6902, extended to sets as OPA does)

function patchGet(doc: Value, path: Value[]): Value | undefined {
  let cur: Value | undefined = doc;
  for (const seg of path) {
    if (cur === undefined) return undefined;
    if (Array.isArray(cur)) {
      const i = arrayIndex(seg);
      cur = i === undefined ? undefined : cur[i];
    } else cur = child(cur, seg);
  }
  return cur;
}

type Edit = (parent: Value, seg: Value) => Value;

/** Rebuilds doc with `edit` applied to the parent of the last path segment. */
function patchAt(doc: Value, path: Value[], edit: Edit): Value {
  if (path.length === 0) throw new BuiltinError('invalid path');
  const rec = (v: Value, i: number): Value => {
    const seg = path[i];
    if (i === path.length - 1) return edit(v, seg);
    if (isObject(v)) {
      const c = objGet(v, seg);
      if (c === undefined) throw new BuiltinError('path does not exist');
      return replaceKey(v, seg, rec(c, i + 1));
    }
    if (Array.isArray(v)) {
      const idx = arrayIndex(seg);
      if (idx === undefined || idx >= v.length) throw new BuiltinError('path does not exist');
      const out = v.slice();
      out[idx] = rec(v[idx], i + 1);
      return out;
    }
    if (v instanceof RegoSet) {
      if (!v.has(seg)) throw new BuiltinError('path does not exist');
      const out = new RegoSet();
      for (const x of v.values()) out.add(equals(x, seg) ? rec(x, i + 1) : x);
      return out;
    }
    throw new BuiltinError('path does not exist');
  };
  return rec(doc, 0);
}

function replaceKey(o: Obj, k: Value, v: Value): Obj {
  const out: [Value, Value][] = [];
  let found = false;
  for (const [kk, vv] of objEntries(o)) {
    if (equals(kk, k)) {
      out.push([kk, v]);
      found = true;
    } else out.push([kk, vv]);
  }
  if (!found) out.push([k, v]);
  return makeObject(out);
}

function opAdd(doc: Value, path: Value[], value: Value): Value {
  if (path.length === 0) return value;
  return patchAt(doc, path, (parent, seg) => {
    if (isObject(parent)) return replaceKey(parent, seg, value);
    if (Array.isArray(parent)) {
      const out = parent.slice();
      if (seg === '-') out.push(value);
      else {
        const i = arrayIndex(seg);
        if (i === undefined || i > parent.length) throw new BuiltinError('invalid array index');
        out.splice(i, 0, value);
      }
      return out;
    }
    if (parent instanceof RegoSet) {
      if (!equals(seg, value)) throw new BuiltinError('set element and key mismatch');
      return new RegoSet(parent.values()).add(value);
    }
    throw new BuiltinError('path does not exist');
  });
}

function opRemove(doc: Value, path: Value[]): Value {
  if (path.length === 0) throw new BuiltinError('cannot remove the root');
  return patchAt(doc, path, (parent, seg) => {
    if (isObject(parent)) {
      if (objGet(parent, seg) === undefined) throw new BuiltinError('path does not exist');
      return makeObject(objEntries(parent).filter(([k]) => !equals(k, seg)));
    }
    if (Array.isArray(parent)) {
      const i = arrayIndex(seg);
      if (i === undefined || i >= parent.length) throw new BuiltinError('invalid array index');
      const out = parent.slice();
      out.splice(i, 1);
      return out;
    }
    if (parent instanceof RegoSet) {
      if (!parent.has(seg)) throw new BuiltinError('path does not exist');
      return new RegoSet(parent.values().filter((x) => !equals(x, seg)));
    }
    throw new BuiltinError('path does not exist');
  });
}

function jsonPatch(doc: Value, ops: Value[]): Value {
  let cur = doc;
  for (const op of ops) {
    if (!isObject(op)) throw new BuiltinError('patch operation must be an object');
    const kind = objGet(op, 'op');
    const pathV = objGet(op, 'path');
    if (typeof kind !== 'string' || pathV === undefined) throw new BuiltinError('patch operation missing op or path');
    const path = parsePath(pathV, 2);
    const value = objGet(op, 'value');
    const fromV = objGet(op, 'from');
    switch (kind) {
      case 'add':
        if (value === undefined) throw new BuiltinError('missing value');
        cur = opAdd(cur, path, value);
        break;
      case 'remove':
        cur = opRemove(cur, path);
        break;
      case 'replace':
        if (value === undefined) throw new BuiltinError('missing value');
        if (patchGet(cur, path) === undefined) throw new BuiltinError('path does not exist');
        cur = opAdd(path.length ? opRemove(cur, path) : cur, path, value);
        break;
      case 'move':
      case 'copy': {
        if (fromV === undefined) throw new BuiltinError('missing from');
        const from = parsePath(fromV, 2);
        const v = patchGet(cur, from);
        if (v === undefined) throw new BuiltinError('from path does not exist');
        if (kind === 'move') cur = opRemove(cur, from);
        cur = opAdd(cur, path, v);
        break;
      }
      case 'test': {
        const v = patchGet(cur, path);
        if (v === undefined || value === undefined || !equals(v, value)) throw new BuiltinError('test failed');
        break;
      }
      default:
        throw new BuiltinError(`unknown patch operation ${JSON.stringify(kind)}`);
    }
  }
  return cur;
}

export const OBJECTS: Record<string, BuiltinImpl> = {
  'object.get': (args) => {
    const o = obj(args, 0);
    const key = args[1];
    const dflt = args[2];
    if (!Array.isArray(key)) {
      const v = objGet(o, key);
      return v === undefined ? dflt : v;
    }
    let cur: Value | undefined = o;
    for (const seg of key) {
      cur = child(cur as Value, seg);
      if (cur === undefined) return dflt;
    }
    return cur;
  },
  'object.keys': (args) => new RegoSet(objKeys(obj(args, 0))),
  'object.remove': (args) => {
    const o = obj(args, 0);
    const drop = new RegoSet(keyList(args, 1));
    return makeObject(objEntries(o).filter(([k]) => !drop.has(k)));
  },
  'object.filter': (args) => {
    const o = obj(args, 0);
    const keep = new RegoSet(keyList(args, 1));
    return makeObject(objEntries(o).filter(([k]) => keep.has(k)));
  },
  'object.union': (args) => unionObjects(obj(args, 0), obj(args, 1)),
  'object.union_n': (args) => {
    const list = arr(args, 0);
    let acc: Obj = {};
    for (const x of list) {
      if (!isObject(x)) throw new BuiltinTypeError(`operand 1 must be array of objects but got array containing ${typeName(x)}`);
      acc = unionObjects(acc, x);
    }
    return acc;
  },
  'object.subset': (args) => {
    const [sup, sub] = args;
    if (!isObject(sup) && !(sup instanceof RegoSet) && !Array.isArray(sup)) throw typeErr(1, sup, oneOf('object', 'set', 'array'));
    if (!isObject(sub) && !(sub instanceof RegoSet) && !Array.isArray(sub)) throw typeErr(2, sub, oneOf('object', 'set', 'array'));
    return isSubset(sup, sub);
  },
  'json.filter': (args) => {
    const o = obj(args, 0);
    return filterBy(o, buildTree(pathList(args, 1))) ?? {};
  },
  'json.remove': (args) => {
    const o = obj(args, 0);
    return removeBy(o, buildTree(pathList(args, 1))) ?? {};
  },
  'json.patch': (args) => {
    const ops = args[1];
    if (!Array.isArray(ops)) throw typeErr(2, ops, 'array');
    return jsonPatch(args[0], ops);
  },
};
