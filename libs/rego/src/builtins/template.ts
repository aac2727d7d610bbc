/**
 * A subset of Go's text/template for strings.render_template: {{.a.b}}, $vars, pipelines with `|`, if/else if/
 * else, range (with `$i, $v :=`), with, comments, trim markers, and the functions len, index, print, printf,
 * println, eq, ne, lt, le, gt, ge, and, or, not. Missing keys are errors (OPA uses missingkey=error).
 */
import { Value, RegoSet, isObject, objGet, objEntries, sortedKeys, equals, compare, toJSONText } from '../value';
import * as N from '../number';
import { BuiltinError } from './errors';
import { goSprintf } from './sprintf';

type Node =
  | { k: 'text'; s: string }
  | { k: 'action'; p: Pipeline }
  | { k: 'if'; p: Pipeline; then: Node[]; else: Node[] }
  | { k: 'range'; p: Pipeline; vars: string[]; body: Node[]; else: Node[] }
  | { k: 'with'; p: Pipeline; body: Node[]; else: Node[] };

interface Pipeline {
  decl: string[]; // `$x :=` / `$i, $v :=`
  assign: boolean; // `$x = ...`
  cmds: Arg[][]; // each command: function/field followed by args
}

type Arg =
  | { t: 'field'; base: 'dot' | string; path: string[] } // .a.b or $x.a
  | { t: 'lit'; v: unknown }
  | { t: 'ident'; name: string }
  | { t: 'sub'; p: Pipeline };

const MISSING = Symbol('missing');

function tokenizeAction(src: string): string[] {
  const toks: string[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === '`') {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' && c === '"' ? 2 : 1;
      toks.push(src.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (c === '(' || c === ')' || c === '|' || c === ',') {
      toks.push(c);
      i++;
      continue;
    }
    if (src.startsWith(':=', i)) {
      toks.push(':=');
      i += 2;
      continue;
    }
    if (c === '=') {
      toks.push('=');
      i++;
      continue;
    }
    let j = i;
    while (j < src.length && !/[\s()|,]/.test(src[j]) && !src.startsWith(':=', j)) j++;
    toks.push(src.slice(i, j));
    i = j;
  }
  return toks;
}

function parseArg(tok: string): Arg {
  if (tok.startsWith('"')) return { t: 'lit', v: JSON.parse(tok) };
  if (tok.startsWith('`')) return { t: 'lit', v: tok.slice(1, -1) };
  if (tok === 'true' || tok === 'false') return { t: 'lit', v: tok === 'true' };
  if (tok === 'nil') return { t: 'lit', v: null };
  if (/^-?\d/.test(tok)) return { t: 'lit', v: Number(tok) };
  if (tok === '.') return { t: 'field', base: 'dot', path: [] };
  if (tok.startsWith('.')) return { t: 'field', base: 'dot', path: tok.slice(1).split('.') };
  if (tok.startsWith('$')) {
    const [v, ...path] = tok.split('.');
    return { t: 'field', base: v, path };
  }
  return { t: 'ident', name: tok };
}

function parsePipeline(toks: string[]): Pipeline {
  let pos = 0;
  const decl: string[] = [];
  let assign = false;
  const di = toks.indexOf(':=');
  const ai = toks.indexOf('=');
  const cut = di >= 0 ? di : ai >= 0 ? ai : -1;
  if (cut >= 0 && toks.slice(0, cut).every((t) => t.startsWith('$') || t === ',')) {
    for (const t of toks.slice(0, cut)) if (t !== ',') decl.push(t);
    assign = di < 0;
    pos = cut + 1;
  }
  const parseCmds = (end: number): Arg[][] => {
    const cmds: Arg[][] = [[]];
    while (pos < end) {
      const t = toks[pos];
      if (t === '|') {
        cmds.push([]);
        pos++;
      } else if (t === '(') {
        let depth = 1;
        let j = pos + 1;
        while (j < end && depth > 0) {
          if (toks[j] === '(') depth++;
          else if (toks[j] === ')') depth--;
          j++;
        }
        const inner = toks.slice(pos + 1, j - 1);
        cmds[cmds.length - 1].push({ t: 'sub', p: parsePipeline(inner) });
        pos = j;
      } else {
        cmds[cmds.length - 1].push(parseArg(t));
        pos++;
      }
    }
    return cmds;
  };
  return { decl, assign, cmds: parseCmds(toks.length) };
}

interface RawTok {
  text?: string;
  action?: string;
}

function lex(src: string): RawTok[] {
  const out: RawTok[] = [];
  let i = 0;
  while (i < src.length) {
    const open = src.indexOf('{{', i);
    if (open < 0) {
      out.push({ text: src.slice(i) });
      break;
    }
    let text = src.slice(i, open);
    let start = open + 2;
    if (src.startsWith('-', start) && /\s/.test(src[start + 1] ?? '')) {
      text = text.replace(/\s+$/, '');
      start += 1;
    }
    if (text) out.push({ text });
    const close = src.indexOf('}}', start);
    if (close < 0) throw new BuiltinError('template: unclosed action');
    let body = src.slice(start, close);
    let next = close + 2;
    if (/\s-$/.test(body)) {
      body = body.slice(0, -1);
      const m = /^\s*/.exec(src.slice(next))!;
      next += m[0].length;
    }
    out.push({ action: body.trim() });
    i = next;
  }
  return out;
}

function parse(src: string): Node[] {
  const toks = lex(src);
  let pos = 0;
  // Parses nodes until one of `stops` (an action word); returns the nodes and the stopping action text.
  const parseList = (stops: string[]): [Node[], string] => {
    const nodes: Node[] = [];
    while (pos < toks.length) {
      const t = toks[pos++];
      if (t.text !== undefined) {
        nodes.push({ k: 'text', s: t.text });
        continue;
      }
      const a = t.action!;
      if (a.startsWith('/*')) continue;
      const word = a.split(/\s+/)[0];
      if (stops.includes(word)) return [nodes, a];
      if (word === 'if' || word === 'with') {
        nodes.push(parseCond(word, a.slice(word.length)));
        continue;
      }
      if (word === 'range') {
        const p = parsePipeline(tokenizeAction(a.slice(5)));
        const [body, stop] = parseList(['else', 'end']);
        let els: Node[] = [];
        if (stop.startsWith('else')) [els] = parseList(['end']);
        nodes.push({ k: 'range', p: { ...p, decl: [] }, vars: p.decl, body, else: els });
        continue;
      }
      if (word === 'end' || word === 'else') throw new BuiltinError(`template: unexpected {{${word}}}`);
      nodes.push({ k: 'action', p: parsePipeline(tokenizeAction(a)) });
    }
    if (stops.length) throw new BuiltinError('template: unexpected EOF');
    return [nodes, ''];
  };
  // `if`/`with` up to and including its `end`; `else if` chains nest and share that `end`.
  const parseCond = (word: string, rest: string): Node => {
    const p = parsePipeline(tokenizeAction(rest));
    const [then, stop] = parseList(['else', 'end']);
    let els: Node[] = [];
    if (stop.startsWith('else')) {
      const tail = stop.slice(4).trim();
      const w = tail.split(/\s+/)[0];
      if (w === 'if' || w === 'with') els = [parseCond(w, tail.slice(w.length))];
      else [els] = parseList(['end']);
    }
    return word === 'if' ? { k: 'if', p, then, else: els } : { k: 'with', p, body: then, else: els };
  };
  return parseList([])[0];
}

class Scope {
  vars: Map<string, unknown>[] = [new Map()];
  get(name: string): unknown {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i].has(name)) return this.vars[i].get(name);
    throw new BuiltinError(`template: undefined variable: ${name}`);
  }
  set(name: string, v: unknown, declare: boolean) {
    if (declare) this.vars[this.vars.length - 1].set(name, v);
    else {
      for (let i = this.vars.length - 1; i >= 0; i--) {
        if (this.vars[i].has(name)) {
          this.vars[i].set(name, v);
          return;
        }
      }
      throw new BuiltinError(`template: undefined variable: ${name}`);
    }
  }
}

function field(v: unknown, key: string): unknown {
  if (isObject(v as Value)) {
    const x = objGet(v as never, key);
    if (x === undefined) throw new BuiltinError(`template: map has no entry for key "${key}"`);
    return x;
  }
  if (v === null || v === undefined) return MISSING;
  throw new BuiltinError(`template: can't evaluate field ${key} in type ${typeof v}`);
}

function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === MISSING) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'string') return v !== '';
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof RegoSet) return v.size > 0;
  if (isObject(v as Value)) return objEntries(v as never).length > 0;
  return true;
}

/** Go's %v for JSON-ish values as text/template prints them. */
export function goValueText(v: unknown): string {
  if (v === null || v === undefined || v === MISSING) return '<no value>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return N.numberToString(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return '[' + v.map(goValueText).join(' ') + ']';
  if (v instanceof RegoSet) return '[' + v.sorted().map(goValueText).join(' ') + ']';
  if (isObject(v as Value)) {
    const o = v as never;
    return 'map[' + sortedKeys(o).map((k) => `${typeof k === 'string' ? k : toJSONText(k)}:${goValueText(objGet(o, k))}`).join(' ') + ']';
  }
  return String(v);
}

function lenOf(v: unknown): number {
  if (typeof v === 'string') return Buffer.byteLength(v, 'utf8');
  if (Array.isArray(v)) return v.length;
  if (v instanceof RegoSet) return v.size;
  if (isObject(v as Value)) return objEntries(v as never).length;
  throw new BuiltinError(`template: len of ${typeof v}`);
}

function cmpArgs(a: unknown, b: unknown): number {
  return compare(a as Value, b as Value);
}

const FUNCS: Record<string, (...a: unknown[]) => unknown> = {
  len: (v) => lenOf(v),
  index: (v, ...keys) => {
    let cur = v;
    for (const k of keys) {
      if (Array.isArray(cur)) cur = cur[Number(k)];
      else if (isObject(cur as Value)) cur = objGet(cur as never, k as Value);
      else throw new BuiltinError("template: can't index item");
      if (cur === undefined) return MISSING;
    }
    return cur;
  },
  print: (...a) => a.map(goValueText).join(''),
  println: (...a) => a.map(goValueText).join(' ') + '\n',
  printf: (f, ...a) => goSprintf(String(f), a as Value[]),
  eq: (a, ...bs) => bs.some((b) => equals(a as Value, b as Value)),
  ne: (a, b) => !equals(a as Value, b as Value),
  lt: (a, b) => cmpArgs(a, b) < 0,
  le: (a, b) => cmpArgs(a, b) <= 0,
  gt: (a, b) => cmpArgs(a, b) > 0,
  ge: (a, b) => cmpArgs(a, b) >= 0,
  not: (a) => !truthy(a),
};

function evalArg(a: Arg, dot: unknown, scope: Scope, root: unknown): unknown {
  switch (a.t) {
    case 'lit':
      return a.v;
    case 'sub':
      return evalPipeline(a.p, dot, scope, root);
    case 'field': {
      let cur = a.base === 'dot' ? dot : a.base === '$' ? root : scope.get(a.base);
      for (const k of a.path) cur = field(cur, k);
      return cur;
    }
    case 'ident':
      if (FUNCS[a.name] || a.name === 'and' || a.name === 'or') return callFn(a.name, [], dot, scope, root);
      throw new BuiltinError(`template: function "${a.name}" not defined`);
  }
}

function callFn(name: string, args: Arg[], dot: unknown, scope: Scope, root: unknown, piped?: { v: unknown }): unknown {
  if (name === 'and' || name === 'or') {
    const all = args.map((x) => () => evalArg(x, dot, scope, root));
    if (piped) all.push(() => piped.v);
    let last: unknown;
    for (const f of all) {
      last = f();
      if (name === 'and' ? !truthy(last) : truthy(last)) return last;
    }
    return last;
  }
  const fn = FUNCS[name];
  if (!fn) throw new BuiltinError(`template: function "${name}" not defined`);
  const vals = args.map((x) => evalArg(x, dot, scope, root));
  if (piped) vals.push(piped.v);
  return fn(...vals);
}

function evalPipeline(p: Pipeline, dot: unknown, scope: Scope, root: unknown): unknown {
  let piped: { v: unknown } | undefined;
  for (const cmd of p.cmds) {
    if (cmd.length === 0) throw new BuiltinError('template: missing value for command');
    const head = cmd[0];
    let v: unknown;
    if (head.t === 'ident') v = callFn(head.name, cmd.slice(1), dot, scope, root, piped);
    else {
      if (cmd.length > 1 || piped) throw new BuiltinError(`template: can't give argument to non-function`);
      v = evalArg(head, dot, scope, root);
    }
    piped = { v };
  }
  const v = piped!.v;
  if (p.decl.length) scope.set(p.decl[0], v, !p.assign);
  return v;
}

function exec(nodes: Node[], dot: unknown, scope: Scope, root: unknown, out: string[]): void {
  for (const n of nodes) {
    switch (n.k) {
      case 'text':
        out.push(n.s);
        break;
      case 'action': {
        const v = evalPipeline(n.p, dot, scope, root);
        if (n.p.decl.length === 0) out.push(goValueText(v));
        break;
      }
      case 'if':
      case 'with': {
        scope.vars.push(new Map());
        const v = evalPipeline(n.p, dot, scope, root);
        if (truthy(v)) exec(n.k === 'if' ? n.then : n.body, n.k === 'with' ? v : dot, scope, root, out);
        else exec(n.else, dot, scope, root, out);
        scope.vars.pop();
        break;
      }
      case 'range': {
        const v = evalPipeline(n.p, dot, scope, root);
        let items: [unknown, unknown][] = [];
        if (Array.isArray(v)) items = v.map((x, i) => [i, x]);
        else if (v instanceof RegoSet) items = v.sorted().map((x, i) => [i, x]);
        else if (isObject(v as Value)) items = sortedKeys(v as never).map((k) => [k, objGet(v as never, k)]);
        else if (typeof v === 'number' || typeof v === 'bigint') {
          items = Array.from({ length: Number(v) }, (_, i) => [i, i]);
        } else if (v !== null && v !== undefined && v !== MISSING) throw new BuiltinError(`template: range can't iterate over ${goValueText(v)}`);
        if (items.length === 0) {
          exec(n.else, dot, scope, root, out);
          break;
        }
        for (const [k, x] of items) {
          scope.vars.push(new Map());
          if (n.vars.length === 1) scope.set(n.vars[0], x, true);
          if (n.vars.length === 2) {
            scope.set(n.vars[0], k, true);
            scope.set(n.vars[1], x, true);
          }
          exec(n.body, x, scope, root, out);
          scope.vars.pop();
        }
        break;
      }
    }
  }
}

export function renderTemplate(src: string, vars: Value): string {
  const nodes = parse(src);
  const out: string[] = [];
  exec(nodes, vars, new Scope(), vars, out);
  return out.join('');
}
