/**
 * Name resolution: every local var gets a frame slot; globals (input, data, imports, rule names of the package)
 * become refs rooted at `input`/`data`; calls get their resolved function name.
 */
import type { CallTerm, Expr, RefTerm, Rule, Term, VarTerm, With } from '../ast/types';
import { Location, RegoError } from '../errors';
import type { Value } from '../value';
import { GENERATED } from './safety';

export interface ResolveEnv {
  pkg: string[] | null; // null for queries
  ruleNames: Set<string>;
  imports: Map<string, Term[]>; // alias -> ref terms (resolved, rooted at data/input)
  isFunction(path: string): boolean; // "data.a.f"
  arityOf(name: string): number | undefined; // builtin or function arity (undefined: unknown name)
  metadata?: (name: string) => Value | undefined; // rego.metadata.* static result for the current rule
  checkCall?: (t: CallTerm) => RegoError | undefined; // static call checks, run once per call as it is resolved
  /** collects refs rooted at data and calls, for the recursion check */
  deps?: Term[];
  errors: RegoError[];
  /** names of import aliases actually used (strict mode) */
  usedImports?: Set<string>;
}

class Scope {
  readonly vars = new Map<string, number>();
  readonly locals: number[] = [];
  constructor(readonly parent?: Scope) {}
  lookup(name: string): number | undefined {
    for (let s: Scope | undefined = this; s; s = s.parent) {
      const v = s.vars.get(name);
      if (v !== undefined) return v;
    }
    return undefined;
  }
}

const GLOBAL_ROOTS = new Set(['input', 'data']);

export class Resolver {
  nslots = 0;
  /** generated vars so far (operands bound outside negations) */
  private generated = 0;
  readonly slotNames: string[] = [];
  readonly top = new Scope();

  constructor(private env: ResolveEnv) {}

  private newSlot(scope: Scope, name: string): number {
    const s = this.nslots++;
    this.slotNames.push(name);
    scope.vars.set(name, s);
    scope.locals.push(s);
    return s;
  }

  private isGlobal(name: string): boolean {
    return GLOBAL_ROOTS.has(name) || this.env.imports.has(name) || this.env.ruleNames.has(name);
  }

  private globalRef(name: string, loc: Location): Term[] {
    if (name === 'input' || name === 'data') return [{ type: 'var', name, slot: -1, loc }];
    const imp = this.env.imports.get(name);
    if (imp) {
      this.env.usedImports?.add(name);
      return imp.map((t) => ({ ...t, loc }));
    }
    const pkg = this.env.pkg ?? [];
    return [{ type: 'var', name: 'data', slot: -1, loc }, ...[...pkg, name].map((s) => ({ type: 'scalar' as const, value: s, loc }))];
  }

  // ------------------------------------------------------------------ declaration pass
  /** Declares the vars a body introduces at its own level (not inside nested bodies). */
  declareBody(body: Expr[], scope: Scope): void {
    for (const e of body) {
      if (e.kind === 'some') for (const v of e.vars) this.newSlot(scope, v.name);
      else if (e.kind === 'assign') this.forVars(e.left, (v) => this.newSlot(scope, v.name), false);
      else if (e.kind === 'somein') {
        if (e.key) this.forVars(e.key, (v) => this.newSlot(scope, v.name), false);
        this.forVars(e.value, (v) => this.newSlot(scope, v.name), false);
      }
    }
    for (const e of body) this.declareUsed(e, scope);
  }

  private declareUsed(e: Expr, scope: Scope): void {
    const use = (v: VarTerm) => {
      if (scope.lookup(v.name) === undefined && !this.isGlobal(v.name)) this.newSlot(scope, v.name);
    };
    switch (e.kind) {
      case 'term':
        this.forVars(e.term, use, true);
        break;
      case 'unify':
      case 'assign':
        this.forVars(e.left, use, true);
        this.forVars(e.right, use, true);
        break;
      case 'somein':
        this.forVars(e.collection, use, true);
        break;
      case 'every':
        this.forVars(e.domain, use, true);
        break;
      case 'some':
        break;
    }
    for (const w of e.with) if (!this.looksLikeFunc(w.value, scope)) this.forVars(w.value, use, true);
  }

  /** A with-value naming a builtin (e.g. `opa.runtime`) rather than a var. */
  private looksLikeFunc(t: Term, scope: Scope): boolean {
    const terms = t.type === 'ref' ? t.terms : t.type === 'var' ? [t] : undefined;
    if (!terms || terms[0].type !== 'var' || scope.lookup(terms[0].name) !== undefined) return false;
    if (this.isGlobal(terms[0].name)) return false;
    if (!terms.slice(1).every((x) => x.type === 'scalar' && typeof x.value === 'string')) return false;
    return this.env.arityOf(this.callName(terms)!) !== undefined;
  }

  /** Visits vars at this level: plain vars, ref heads and operands, call args; not nested bodies. */
  private forVars(t: Term, f: (v: VarTerm) => void, refHeads: boolean): void {
    switch (t.type) {
      case 'var':
        f(t);
        break;
      case 'ref':
        t.terms.forEach((x, i) => {
          if (i === 0 && x.type === 'var' && !refHeads) return;
          this.forVars(x, f, refHeads);
        });
        break;
      case 'array':
      case 'set':
        for (const x of t.items) this.forVars(x, f, refHeads);
        break;
      case 'object':
        for (const [k, v] of t.items) {
          this.forVars(k, f, refHeads);
          this.forVars(v, f, refHeads);
        }
        break;
      case 'call':
        for (const x of t.args) this.forVars(x, f, refHeads);
        break;
      case 'template':
        for (const x of t.parts) if (typeof x !== 'string') this.forVars(x, f, refHeads);
        break;
      default:
        break;
    }
  }

  // ------------------------------------------------------------------ rewriting
  resolveBody(body: Expr[], scope: Scope): Expr[] {
    const assigned = new Set<string>();
    const out: Expr[] = [];
    for (const e of body) {
      const r = this.resolveExpr(e, scope, assigned);
      if (r.negated) this.hoistNegated(r, scope, out);
      out.push(r);
    }
    return out;
  }

  /**
   * OPA evaluates the dynamic operands of an expression (refs, calls, also inside array/set/object literals)
   * before the expression itself: its compiler binds each to a generated var in an expression of its own
   * (`rewriteDynamics`, `rewriteExprTerms`). Under `not` this is observable: `not f(x.y)` with `x.y` undefined
   * is undefined (the body fails) rather than true, and `not f(xs[_])` holds when f fails for some element.
   * So the operands of a negated expression are bound outside it, in generated expressions placed before it
   * (they keep its `with` modifiers). A negated ref keeps its head; only its dynamic keys move out; so do the
   * sides of `=` and, in rules (which OPA rewrites from `==` to `=`), of `==`.
   */
  private hoistNegated(e: Expr, scope: Scope, out: Expr[]): void {
    const gen = (t: Term): Term => {
      const name = `${GENERATED}${this.generated++}`;
      const slot = this.newSlot(scope, name);
      out.push({ kind: 'unify', left: { type: 'var', name, slot, loc: t.loc }, right: t, negated: false, with: e.with, loc: t.loc });
      return { type: 'var', name, slot, loc: t.loc };
    };
    const one = (t: Term): Term => {
      switch (t.type) {
        case 'ref':
          return gen(t);
        case 'call':
          return t.name === 'print' || t.constValue !== undefined || t.arity === undefined || t.args.length !== t.arity ? t : gen(t);
        case 'array':
        case 'set':
          for (let i = 0; i < t.items.length; i++) t.items[i] = one(t.items[i]);
          return t;
        case 'object':
          for (const it of t.items) {
            it[0] = one(it[0]);
            it[1] = one(it[1]);
          }
          return t;
        default:
          return t;
      }
    };
    const operands = (t: Term): Term => {
      if (t.type === 'ref') {
        for (let i = 1; i < t.terms.length; i++) t.terms[i] = one(t.terms[i]);
        return t;
      }
      if (t.type === 'arraycomp' || t.type === 'setcomp' || t.type === 'objectcomp') return t;
      return one(t);
    };
    if (e.kind === 'term') {
      const t = e.term;
      if (t.type === 'call' && t.name === 'equal' && t.args.length === 2 && this.env.pkg !== null) {
        // in rule bodies OPA first turns `a == b` into `a = b` (its RewriteEquals stage): refs stay in place
        t.args[0] = operands(t.args[0]);
        t.args[1] = operands(t.args[1]);
      } else if (t.type === 'call') {
        if (t.name !== 'print') for (let i = 0; i < t.args.length; i++) t.args[i] = one(t.args[i]);
      } else e.term = operands(t);
    } else if (e.kind === 'unify') {
      e.left = operands(e.left);
      e.right = operands(e.right);
    }
  }

  private resolveExpr(e: Expr, scope: Scope, assigned: Set<string>): Expr {
    const w = e.with.map((x) => this.resolveWith(x, scope));
    switch (e.kind) {
      case 'term':
        return { ...e, with: w, term: this.term(e.term, scope) };
      case 'unify':
        return { ...e, with: w, left: this.term(e.left, scope), right: this.term(e.right, scope) };
      case 'assign': {
        this.forVars(e.left, (v) => {
          if (assigned.has(v.name) && !v.wildcard) this.env.errors.push(new RegoError('rego_compile_error', `var ${v.name} assigned above`, v.loc));
          assigned.add(v.name);
        }, false);
        if (e.left.type !== 'var' && e.left.type !== 'array' && e.left.type !== 'object') {
          this.env.errors.push(new RegoError('rego_parse_error', `cannot assign to ${describeTerm(e.left)}`, e.loc));
        }
        return { ...e, with: w, left: this.term(e.left, scope), right: this.term(e.right, scope) };
      }
      case 'some':
        return { ...e, with: w, vars: e.vars.map((v) => this.term(v, scope) as VarTerm) };
      case 'somein':
        return {
          ...e,
          with: w,
          key: e.key ? this.term(e.key, scope) : undefined,
          value: this.term(e.value, scope),
          collection: this.term(e.collection, scope),
        };
      case 'every': {
        const domain = this.term(e.domain, scope);
        const inner = new Scope(scope);
        const key = e.key ? ({ ...e.key, slot: this.newSlot(inner, e.key.name) } as VarTerm) : undefined;
        const value = { ...e.value, slot: this.newSlot(inner, e.value.name) } as VarTerm;
        this.declareBody(e.body, inner);
        const body = this.resolveBody(e.body, inner);
        return { ...e, with: w, key, value, domain, body, locals: inner.locals };
      }
    }
  }

  private resolveWith(w: With, scope: Scope): With {
    const value: Term = this.looksLikeFunc(w.value, scope) ? { type: 'scalar', value: null, loc: w.value.loc } : this.term(w.value, scope);
    const terms = w.target.terms;
    const head = terms[0];
    const out: With = { ...w, value };
    const strPath = (ts: Term[]) => {
      const p: string[] = [];
      for (const t of ts) {
        if (t.type === 'scalar' && typeof t.value === 'string') p.push(t.value);
        else {
          this.env.errors.push(new RegoError('rego_compile_error', `with keyword target must be a ground reference`, w.loc));
          return p;
        }
      }
      return p;
    };
    if (head.type === 'var' && head.name === 'input' && scope.lookup('input') === undefined) {
      out.kind = 'input';
      out.path = strPath(terms.slice(1));
    } else {
      let full: Term[] | undefined;
      if (head.type === 'var' && (head.name === 'data' || this.env.imports.has(head.name) || this.env.ruleNames.has(head.name))) {
        full = [...this.globalRef(head.name, head.loc), ...terms.slice(1)];
      }
      if (full && full[0].type === 'var' && (full[0] as VarTerm).name === 'input') {
        out.kind = 'input';
        out.path = strPath(full.slice(1));
      } else if (full) {
        const path = strPath(full.slice(1));
        const name = 'data.' + path.join('.');
        if (this.env.isFunction(name)) {
          out.kind = 'func';
          out.funcName = name;
        } else {
          out.kind = 'data';
          out.path = path;
        }
      } else {
        const name = terms.map((t, i) => (i === 0 ? (t as VarTerm).name : String((t as { value: unknown }).value))).join('.');
        if (this.env.arityOf(name) === undefined) {
          this.env.errors.push(new RegoError('rego_compile_error', `with keyword target ${name} must reference existing input, data, or a function`, w.loc));
        }
        out.kind = 'func';
        out.funcName = name;
      }
    }
    if (out.kind === 'func') {
      const vf = this.funcNameOf(w.value, scope);
      if (!vf && this.looksLikeFunc(w.value, scope)) out.valueFunc = this.callName((w.value as RefTerm).terms ?? [w.value]);
      if (vf) out.valueFunc = vf;
    }
    return out;
  }

  /** If `t` names a function or builtin (not a local var), its resolved name. */
  private funcNameOf(t: Term, scope: Scope): string | undefined {
    const terms = t.type === 'ref' ? t.terms : t.type === 'var' ? [t] : undefined;
    if (!terms || terms[0].type !== 'var') return undefined;
    if (scope.lookup(terms[0].name) !== undefined) return undefined;
    if (!terms.slice(1).every((x) => x.type === 'scalar' && typeof x.value === 'string')) return undefined;
    const name = this.callName(terms);
    if (name && this.env.arityOf(name) !== undefined) return name;
    return undefined;
  }

  private callName(terms: Term[]): string | undefined {
    const head = terms[0] as VarTerm;
    const rest = terms.slice(1).map((x) => (x.type === 'scalar' ? String(x.value) : '?'));
    if (head.name === 'data' || this.env.imports.has(head.name) || (this.env.ruleNames.has(head.name) && this.env.pkg)) {
      const g = this.globalRef(head.name, head.loc);
      if (g[0].type === 'var' && (g[0] as VarTerm).name === 'data') {
        return ['data', ...g.slice(1).map((x) => String((x as { value: unknown }).value)), ...rest].join('.');
      }
    }
    return [head.name, ...rest].join('.');
  }

  /** Resolves a term in place (the parsed AST is used once) and returns it, or its replacement for globals. */
  term(t: Term, scope: Scope): Term {
    switch (t.type) {
      case 'scalar':
        return t;
      case 'var': {
        if (t.slot !== undefined) return t;
        const slot = scope.lookup(t.name);
        if (slot !== undefined) {
          t.slot = slot;
          return t;
        }
        if (this.isGlobal(t.name)) {
          const g = this.globalRef(t.name, t.loc);
          if (g.length === 1) return g[0];
          const ref: Term = { type: 'ref', terms: g, loc: t.loc };
          if ((g[0] as VarTerm).name === 'data') this.env.deps?.push(ref);
          return ref;
        }
        // not declared at any level (e.g. head-only var): declare now so safety reports it
        t.slot = this.newSlot(scope, t.name);
        return t;
      }
      case 'ref': {
        const head = t.terms[0];
        let terms: Term[];
        if (head.type === 'var' && head.slot === undefined && scope.lookup(head.name) === undefined && this.isGlobal(head.name)) {
          terms = this.globalRef(head.name, head.loc);
        } else terms = [this.term(head, scope)];
        for (let i = 1; i < t.terms.length; i++) terms.push(this.term(t.terms[i], scope));
        if (terms.length === 1) return terms[0];
        t.terms = terms;
        if (terms[0].type === 'var' && terms[0].slot === -1 && terms[0].name === 'data') this.env.deps?.push(t);
        return t;
      }
      case 'array':
      case 'set':
        for (let i = 0; i < t.items.length; i++) t.items[i] = this.term(t.items[i], scope);
        return t;
      case 'object':
        for (const it of t.items) {
          it[0] = this.term(it[0], scope);
          it[1] = this.term(it[1], scope);
        }
        return t;
      case 'template':
        for (let i = 0; i < t.parts.length; i++) {
          const x = t.parts[i];
          if (typeof x !== 'string') t.parts[i] = this.term(x, scope);
        }
        return t;
      case 'call': {
        if (t.name !== undefined) return t;
        const opTerms = t.op.terms;
        let name: string | undefined;
        if (opTerms[0].type === 'var' && scope.lookup(opTerms[0].name) === undefined && opTerms.slice(1).every((x) => x.type === 'scalar' && typeof x.value === 'string')) {
          name = this.callName(opTerms);
        }
        for (let i = 0; i < t.args.length; i++) t.args[i] = this.term(t.args[i], scope);
        if (!name) {
          this.env.errors.push(new RegoError('rego_type_error', `undefined function ${describeTerm(t.op)}`, t.loc));
          return t;
        }
        const arity = this.env.arityOf(name);
        if (arity === undefined) {
          this.env.errors.push(new RegoError('rego_type_error', `undefined function ${name}`, t.loc));
        }
        t.name = name;
        t.arity = arity;
        if (name.startsWith('data.')) this.env.deps?.push(t);
        const err = this.env.checkCall?.(t);
        if (err) this.env.errors.push(err);
        if (name === 'rego.metadata.chain' || name === 'rego.metadata.rule') {
          const v = this.env.metadata?.(name);
          if (v !== undefined) t.constValue = v;
        }
        return t;
      }
      case 'arraycomp':
      case 'setcomp': {
        const inner = new Scope(scope);
        this.declareBody(t.body, inner);
        this.forVars(t.term, (v) => {
          if (inner.lookup(v.name) === undefined && !this.isGlobal(v.name)) this.newSlot(inner, v.name);
        }, true);
        const body = this.resolveBody(t.body, inner);
        return { ...t, term: this.term(t.term, inner), body, locals: inner.locals };
      }
      case 'objectcomp': {
        const inner = new Scope(scope);
        this.declareBody(t.body, inner);
        const body = this.resolveBody(t.body, inner);
        return { ...t, key: this.term(t.key, inner), value: this.term(t.value, inner), body, locals: inner.locals };
      }
    }
  }

  // ------------------------------------------------------------------ rules and queries
  resolveRule(rule: Rule): Rule {
    const scope = this.top;
    const h = rule.head;
    // function args are declared first (they are bound by the call)
    if (h.args) for (const a of h.args) this.forVars(a, (v) => scope.lookup(v.name) === undefined && this.newSlot(scope, v.name), false);
    this.declareBody(rule.body, scope);
    const headUse = (v: VarTerm) => {
      if (scope.lookup(v.name) === undefined && !this.isGlobal(v.name)) this.newSlot(scope, v.name);
    };
    for (const t of rule.dyn ?? []) this.forVars(t, headUse, true);
    if (h.key) this.forVars(h.key, headUse, true);
    if (h.value) this.forVars(h.value, headUse, true);
    const body = this.resolveBody(rule.body, scope);
    const head = {
      ...h,
      args: h.args?.map((a) => this.term(a, scope)),
      key: h.key ? this.term(h.key, scope) : undefined,
      value: h.value ? this.term(h.value, scope) : undefined,
    };
    const dyn = rule.dyn?.map((t) => this.term(t, scope));
    // all fields spelled out in one order: rules then share one object shape (the compiler fills the rest)
    return {
      head,
      body,
      default: rule.default,
      else: undefined,
      loc: rule.loc,
      module: rule.module,
      annotations: rule.annotations,
      path: rule.path,
      nslots: 0,
      implicitBody: rule.implicitBody,
      kind: rule.kind,
      dyn,
      slotNames: this.slotNames,
    };
  }

  resolveQuery(body: Expr[]): Expr[] {
    this.declareBody(body, this.top);
    return this.resolveBody(body, this.top);
  }
}

function describeTerm(t: Term): string {
  switch (t.type) {
    case 'scalar':
      return t.value === null ? 'null' : typeof t.value === 'string' ? 'string' : typeof t.value === 'boolean' ? 'boolean' : 'number';
    case 'ref':
      return t.terms.map((x, i) => (i === 0 && x.type === 'var' ? x.name : x.type === 'scalar' ? String(x.value) : '[...]')).join('.');
    case 'var':
      return t.name;
    default:
      return t.type;
  }
}

export type { RefTerm };
