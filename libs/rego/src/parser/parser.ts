/**
 * Recursive-descent parser for Rego (modules, queries and single terms), v1 by default. With `regoVersion: 0` a
 * module is read as OPA's v0 syntax: rule bodies without `if`, `p[x] { ... }` partial sets, several bodies per
 * head, and `in`/`every`/`if`/`contains` keywords only once `future.keywords` (or `rego.v1`) imports them. A v0
 * module importing `rego.v1` is held to v1's rules (OPA's "v0 compatible with v1").
 */
import { BigDec, decCompare, decOf, parseDec } from '../decimal';
import { Location, RegoError } from '../errors';
import type {
  Annotation,
  ArrayTerm,
  CallTerm,
  Expr,
  Import,
  Module,
  RefTerm,
  Rule,
  RuleHead,
  Term,
  VarTerm,
  With,
} from '../ast/types';
import { Comment, Token, tokenize } from './lexer';
import { parseAnnotations } from './annotations';

/** Keywords of Rego v1. */
const KEYWORDS = new Set([
  'not', 'some', 'every', 'in', 'if', 'contains', 'else', 'with', 'as', 'default', 'package', 'import',
  'true', 'false', 'null',
]);
/** Keywords a v0 module gets from `import future.keywords[.<name>]`. */
const FUTURE_KEYWORDS = ['in', 'every', 'if', 'contains'];
const V0_KEYWORDS = new Set([...KEYWORDS].filter((k) => !FUTURE_KEYWORDS.includes(k)));

export type RegoVersion = 0 | 1;

export interface ParseOptions {
  /** 1 (default, OPA 1.x) or 0 (`--v0-compatible`, a bundle's `rego_version: 0`). */
  regoVersion?: RegoVersion;
}

const RELATION: Record<string, string> = { '==': 'equal', '!=': 'neq', '<': 'lt', '<=': 'lte', '>': 'gt', '>=': 'gte' };
const ARITH: Record<string, string> = { '+': 'plus', '-': 'minus' };
const FACTOR: Record<string, string> = { '*': 'mul', '/': 'div', '%': 'rem' };

let wildcardCounter = 0;

export class Parser {
  private toks: Token[];
  private p = 0;
  readonly comments: Comment[];
  private noOr = 0;
  /** keywords in force (v0 modules gain the future ones by importing them) */
  private kw: Set<string>;
  /** v1 rules apply: `if` before bodies, `contains` for sets (v1, or v0 importing rego.v1) */
  private v1: boolean;

  constructor(src: string, private file: string, opts: ParseOptions = {}) {
    const { tokens, comments } = tokenize(src, file);
    this.toks = tokens;
    this.comments = comments;
    this.v1 = (opts.regoVersion ?? 1) === 1;
    this.kw = this.v1 ? KEYWORDS : new Set(V0_KEYWORDS);
  }

  // ------------------------------------------------------------------ helpers
  private get t(): Token {
    return this.toks[this.p];
  }
  private peek(k = 1): Token {
    return this.toks[Math.min(this.p + k, this.toks.length - 1)];
  }
  private loc(t: Token = this.t): Location {
    return { file: this.file, row: t.row, col: t.col };
  }
  private err(msg: string, t: Token = this.t): never {
    throw new RegoError('rego_parse_error', msg, this.loc(t));
  }
  private isOp(s: string, t: Token = this.t): boolean {
    return t.kind === 'op' && t.text === s;
  }
  private isKw(s: string, t: Token = this.t): boolean {
    return t.kind === 'ident' && t.text === s && (this.v1 || this.kw.has(s));
  }
  private expectOp(s: string): Token {
    if (!this.isOp(s)) this.err(`unexpected ${this.describe()} token: expected ${s}`);
    return this.toks[this.p++];
  }
  private describe(t: Token = this.t): string {
    if (t.kind === 'eof') return 'eof';
    if (t.kind === 'ident') return this.kw.has(t.text) ? t.text + ' keyword' : 'ident';
    if (t.kind === 'op') return t.text;
    return t.kind;
  }

  // ------------------------------------------------------------------ module
  parseModule(): Module {
    if (!this.isKw('package')) this.err('unexpected ' + this.describe() + ' token: expected package');
    const pkgTok = this.t;
    this.p++;
    const pkgRef = this.parseTermPrimary();
    const path = this.refToPath(pkgRef, 'package');
    if (path[0] !== 'data') path.unshift('data');
    const mod: Module = { file: this.file, package: { path: path.slice(1), loc: this.loc(pkgTok) }, imports: [], rules: [], annotations: [] };
    while (this.isKw('import')) this.parseImport(mod);
    while (this.t.kind !== 'eof') {
      if (this.isKw('package')) this.err('unexpected package keyword');
      if (this.isKw('import')) {
        // OPA accepts imports between rules too; they apply to the whole module
        this.parseImport(mod);
        continue;
      }
      for (const rule of this.parseRule(mod)) mod.rules.push(rule);
      this.endOfStatement();
    }
    mod.regoVersion = this.v1 ? 1 : 0;
    const anns = parseAnnotations(this.comments, this.file);
    attachAnnotations(mod, anns);
    return mod;
  }

  private parseImport(mod: Module): void {
    const t = this.t;
    this.p++;
    const ref = this.parseTermPrimary();
    let alias: string | undefined;
    if (this.isKw('as') && !this.t.nl) {
      this.p++;
      if (this.t.kind !== 'ident') this.err('unexpected ' + this.describe() + ' token: expected var');
      alias = this.t.text;
      this.p++;
    }
    const r: RefTerm = ref.type === 'ref' ? ref : { type: 'ref', terms: [ref], loc: ref.loc };
    const head = r.terms[0];
    if (head.type !== 'var' || !['data', 'input', 'future', 'rego'].includes(head.name)) {
      this.err('invalid import path', t);
    }
    if (head.name === 'rego') {
      mod.regoV1 = true;
      this.v1 = true;
      this.kw = KEYWORDS;
    } else if (head.name === 'future' && !this.v1) this.futureImport(r, t);
    mod.imports.push({ path: r, alias, loc: this.loc(t) });
    this.endOfStatement();
  }

  /** `import future.keywords` (all four) or `import future.keywords.<name>` in a v0 module. */
  private futureImport(r: RefTerm, t: Token): void {
    const names = r.terms.slice(1).map((x) => (x.type === 'scalar' ? String(x.value) : ''));
    if (names[0] !== 'keywords' || names.length > 2) this.err('invalid import, must be `future.keywords`', t);
    if (names.length === 1) for (const k of FUTURE_KEYWORDS) this.kw.add(k);
    else if (FUTURE_KEYWORDS.includes(names[1])) this.kw.add(names[1]);
    else this.err(`unexpected keyword, must be one of [${FUTURE_KEYWORDS.join(' ')}]`, t);
  }

  private endOfStatement(): void {
    if (this.t.kind === 'eof') return;
    if (this.isOp(';')) {
      this.p++;
      return;
    }
    if (!this.t.nl) this.err(`unexpected ${this.describe()} token`);
  }

  private refToPath(t: Term, what: string): string[] {
    const terms = t.type === 'ref' ? t.terms : [t];
    const out: string[] = [];
    terms.forEach((x, i) => {
      if (i === 0 && x.type === 'var') out.push(x.name);
      else if (i > 0 && x.type === 'scalar' && typeof x.value === 'string') out.push(x.value);
      else this.err(`invalid ${what} path`);
    });
    return out;
  }

  /** One rule statement: usually one rule; a v0 head with several bodies (`p { a } { b }`) gives one rule per body. */
  private parseRule(mod: Module): Rule[] {
    const start = this.t;
    let isDefault = false;
    if (this.isKw('default')) {
      isDefault = true;
      this.p++;
    }
    const headTerm = this.parseTermPrimary();
    const head: RuleHead = { ref: [], assign: false, contains: false, loc: this.loc(start) };
    if (headTerm.type === 'var') head.ref = [headTerm];
    else if (headTerm.type === 'ref') head.ref = headTerm.terms;
    else if (headTerm.type === 'call') {
      head.ref = headTerm.op.terms;
      head.args = headTerm.args;
    } else this.err('unexpected ' + headTerm.type + ' term: expected rule head', start);
    if (head.ref[0].type !== 'var' || this.kw.has((head.ref[0] as VarTerm).name)) this.err('invalid rule head', start);
    const rule: Rule = { head, body: [], default: isDefault, loc: this.loc(start), module: mod };
    if (this.isKw('contains') && !this.t.nl) {
      this.p++;
      head.contains = true;
      head.key = this.parseTermIn(false);
    } else if ((this.isOp(':=') || this.isOp('=')) && !this.t.nl) {
      head.assign = this.t.text === ':=';
      this.p++;
      head.value = this.parseTermIn(false);
    }
    if (isDefault) {
      if (!head.value) this.err('default rule must have a value', start);
      if (head.contains) this.err('default rules must not be multi-value', start);
      rule.body = [];
      rule.implicitBody = true;
      return [rule];
    }
    const hasIf = this.isKw('if') && !this.t.nl;
    if (hasIf) {
      this.p++;
      rule.body = this.parseRuleBody();
    } else if (this.isOp('{') && (!this.t.nl || !this.v1)) {
      if (this.v1) this.err('`if` keyword is required before rule body');
      rule.body = this.parseBraceBody();
    } else {
      rule.body = [];
      rule.implicitBody = true;
      if (!head.value && !head.contains && head.ref.length === 1 && !head.args) {
        // bare `p` without value and body: only ref heads (`p.q.r`) and functions default to true
        if (this.v1) this.err(`rule must have value assignment and/or body`, start);
        this.err(`var cannot be used for rule name`, start);
      }
    }
    if (!this.v1 && !hasIf && !head.contains && !head.value && !head.args && head.ref.length === 2) {
      // v0: `p[x] { ... }` and `p.q { ... }` (or without a body) define the partial set `p`
      head.contains = true;
      head.key = head.ref[1];
      head.ref = [head.ref[0]];
    }
    if (!head.value && !head.contains) head.value = { type: 'scalar', value: true, loc: head.loc };
    // else chain
    let cur = rule;
    while (this.isKw('else')) {
      if (head.contains) this.err('else keyword cannot be used on multi-value rules');
      if (head.ref.length > 1 && !head.args && head.ref.slice(1).some((x) => x.type !== 'scalar')) {
        this.err('else keyword cannot be used on rules with variables in head');
      }
      const et = this.t;
      this.p++;
      const e: Rule = {
        head: { ref: head.ref, args: head.args, assign: false, contains: false, loc: this.loc(et) },
        body: [],
        default: false,
        loc: this.loc(et),
        module: mod,
      };
      if (this.isOp(':=') || this.isOp('=')) {
        e.head.assign = this.t.text === ':=';
        this.p++;
        e.head.value = this.parseTermIn(false);
      } else {
        e.head.value = { type: 'scalar', value: true, loc: e.loc };
      }
      if (this.isKw('if')) {
        this.p++;
        e.body = this.parseRuleBody();
      } else if (this.isOp('{')) {
        e.body = this.parseBraceBody();
      } else {
        e.implicitBody = true;
      }
      cur.else = e;
      cur = e;
    }
    const rules = [rule];
    // `p { a } { b }`: each further body defines the same head again (OPA's chained rule bodies)
    while (this.isOp('{') && !rule.implicitBody) {
      if (rule.else) this.err('expected else keyword');
      const open = this.t;
      const body = this.parseBraceBody();
      const h = cloneHead(head);
      h.loc = this.loc(open);
      rules.push({ head: h, body, default: false, loc: this.loc(open), module: mod });
    }
    return rules;
  }

  private parseRuleBody(): Expr[] {
    if (this.isOp('{')) {
      // `if {` is a body, unless it only parses as a term (e.g. an object comprehension literal)
      const save = this.p;
      try {
        return this.parseBraceBody();
      } catch (e) {
        this.p = save;
        try {
          return [this.parseLiteral()];
        } catch {
          throw e;
        }
      }
    }
    const lit = this.parseLiteral();
    return [lit];
  }

  private parseBraceBody(): Expr[] {
    const open = this.expectOp('{');
    const body = this.parseQueryUntil('}');
    if (body.length === 0) this.err('found empty body', open);
    this.expectOp('}');
    return body;
  }

  /** Literals separated by `;` or newlines until `end` ('}' or 'eof'). */
  parseQueryUntil(end: string): Expr[] {
    const out: Expr[] = [];
    const atEnd = () => (end === 'eof' ? this.t.kind === 'eof' : this.isOp(end));
    while (!atEnd()) {
      if (this.t.kind === 'eof') this.err('unexpected eof token: expected ' + end);
      out.push(this.parseLiteral());
      if (atEnd()) break;
      if (this.isOp(';')) {
        this.p++;
        continue;
      }
      if (!this.t.nl) this.err(`unexpected ${this.describe()} token: expected \\n or ; or ${end}`);
    }
    return out;
  }

  // ------------------------------------------------------------------ literals
  parseLiteral(): Expr {
    const start = this.t;
    const loc = this.loc(start);
    let expr: Expr;
    if (this.isKw('some')) {
      this.p++;
      const first = this.parseTermIn(true);
      if (first.type === 'call' && first.op.terms.length === 2 && isVar(first.op.terms[0], 'internal')) {
        const name = (first.op.terms[1] as { value: string }).value;
        if (name === 'member_2') expr = { kind: 'somein', value: first.args[0], collection: first.args[1], loc, negated: false, with: [] };
        else expr = { kind: 'somein', key: first.args[0], value: first.args[1], collection: first.args[2], loc, negated: false, with: [] };
      } else {
        const vars: VarTerm[] = [];
        let cur: Term = first;
        for (;;) {
          if (cur.type !== 'var') this.err('unexpected ' + cur.type + ' term: expected var', start);
          vars.push(cur);
          if (!this.isOp(',')) break;
          this.p++;
          cur = this.parseTermPrimary();
        }
        expr = { kind: 'some', vars, loc, negated: false, with: [] };
      }
    } else if (this.isKw('every')) {
      this.p++;
      const a = this.parseTermPrimary();
      let key: VarTerm | undefined;
      let value: VarTerm;
      if (a.type !== 'var') this.err('unexpected ' + a.type + ' term: expected var', start);
      if (this.isOp(',')) {
        this.p++;
        const b = this.parseTermPrimary();
        if (b.type !== 'var') this.err('unexpected ' + b.type + ' term: expected var', start);
        key = a;
        value = b;
      } else value = a;
      if (!this.isKw('in')) this.err('unexpected ' + this.describe() + ' token: expected in');
      this.p++;
      const domain = this.parseTermRelation();
      const body = this.parseBraceBodyAllowEmpty();
      expr = { kind: 'every', key, value, domain, body, loc, negated: false, with: [] };
    } else {
      let negated = false;
      if (this.isKw('not')) {
        negated = true;
        this.p++;
      }
      const left = this.parseTermIn(true);
      if ((this.isOp('=') || this.isOp(':=')) && !this.t.nl) {
        const op = this.t.text;
        this.p++;
        const right = this.parseTermIn(true);
        expr = op === '=' ? { kind: 'unify', left, right, loc, negated, with: [] } : { kind: 'assign', left, right, loc, negated, with: [] };
        if (op === ':=' && negated) this.err('cannot assign vars inside negated expression', start);
      } else {
        expr = { kind: 'term', term: left, loc, negated, with: [] };
      }
    }
    while (this.isKw('with')) {
      const wt = this.t;
      this.p++;
      const target = this.parseTermPrimary();
      if (!this.isKw('as')) this.err('unexpected ' + this.describe() + ' token: expected as');
      this.p++;
      const value = this.parseTermIn(false);
      const tref: RefTerm = target.type === 'ref' ? target : target.type === 'var' ? { type: 'ref', terms: [target], loc: target.loc } : this.err('invalid with target', wt);
      expr.with.push({ target: tref, value, loc: this.loc(wt) } as With);
    }
    return expr;
  }

  private parseBraceBodyAllowEmpty(): Expr[] {
    this.expectOp('{');
    const body = this.parseQueryUntil('}');
    this.expectOp('}');
    return body;
  }

  // ------------------------------------------------------------------ infix terms
  /** `a in b`, `k, v in b` (keyVal) — lowest term precedence */
  parseTermIn(keyVal: boolean): Term {
    let lhs = this.parseTermRelation();
    if (keyVal && this.isOp(',')) {
      // possibly `k, v in xs`
      const save = this.p;
      this.p++;
      const mhs = this.parseTermRelation();
      if (this.isKw('in')) {
        const opTok = this.t;
        this.p++;
        const rhs = this.parseTermRelation();
        lhs = this.mkCall('internal.member_3', [lhs, mhs, rhs], opTok);
      } else {
        this.p = save;
        return lhs;
      }
    }
    while (this.isKw('in') && !this.t.nl) {
      const opTok = this.t;
      this.p++;
      const rhs = this.parseTermRelation();
      lhs = this.mkCall('internal.member_2', [lhs, rhs], opTok);
    }
    return lhs;
  }

  parseTermRelation(): Term {
    let lhs = this.parseTermOr();
    while (this.t.kind === 'op' && RELATION[this.t.text] && !this.t.nl) {
      const opTok = this.t;
      this.p++;
      const rhs = this.parseTermOr();
      lhs = this.mkCall(RELATION[opTok.text], [lhs, rhs], opTok, lhs.loc);
    }
    return lhs;
  }

  private parseTermOr(): Term {
    let lhs = this.parseTermAnd();
    while (this.noOr === 0 && this.isOp('|') && !this.t.nl) {
      const opTok = this.t;
      this.p++;
      const rhs = this.parseTermAnd();
      lhs = this.mkCall('or', [lhs, rhs], opTok, lhs.loc);
    }
    return lhs;
  }

  private parseTermAnd(): Term {
    let lhs = this.parseTermArith();
    while (this.isOp('&') && !this.t.nl) {
      const opTok = this.t;
      this.p++;
      const rhs = this.parseTermArith();
      lhs = this.mkCall('and', [lhs, rhs], opTok, lhs.loc);
    }
    return lhs;
  }

  private parseTermArith(): Term {
    let lhs = this.parseTermFactor();
    while (this.t.kind === 'op' && ARITH[this.t.text] && !this.t.nl) {
      const opTok = this.t;
      this.p++;
      const rhs = this.parseTermFactor();
      lhs = this.mkCall(ARITH[opTok.text], [lhs, rhs], opTok, lhs.loc);
    }
    return lhs;
  }

  private parseTermFactor(): Term {
    let lhs = this.parseTermPrimary();
    while (this.t.kind === 'op' && FACTOR[this.t.text] && !this.t.nl) {
      const opTok = this.t;
      this.p++;
      const rhs = this.parseTermPrimary();
      lhs = this.mkCall(FACTOR[opTok.text], [lhs, rhs], opTok, lhs.loc);
    }
    return lhs;
  }

  private mkCall(name: string, args: Term[], opTok: Token, loc?: Location): CallTerm {
    const l = this.loc(opTok);
    const parts = name.split('.');
    const op: RefTerm = {
      type: 'ref',
      terms: [{ type: 'var', name: parts[0], loc: l }, ...parts.slice(1).map((s) => ({ type: 'scalar' as const, value: s, loc: l }))],
      loc: l,
    };
    return { type: 'call', op, args, loc: loc ?? args[0]?.loc ?? l };
  }

  // ------------------------------------------------------------------ primary terms
  parseTermPrimary(): Term {
    const t = this.t;
    const loc = this.loc(t);
    let term: Term;
    switch (t.kind) {
      case 'number':
        this.p++;
        term = { type: 'scalar', value: parseNumber(t.text), loc };
        break;
      case 'string':
      case 'rawstring':
        this.p++;
        term = { type: 'scalar', value: t.text, loc };
        break;
      case 'template': {
        this.p++;
        const parts: Array<string | Term> = [];
        for (const part of t.parts ?? []) {
          if (typeof part === 'string') {
            if (part) parts.push(part);
            continue;
          }
          // parse the embedded expression with its own parser, padded so locations stay those of the file
          const padded = '\n'.repeat(part.row - 1) + ' '.repeat(part.col - 1) + part.src;
          const sub = new Parser(padded, this.file);
          if (sub.atEof()) this.err('empty template expression', t);
          const inner = sub.parseTermIn(false);
          if (!sub.atEof()) sub.fail('unexpected token in template expression');
          parts.push(inner);
        }
        term = { type: 'template', parts, loc };
        break;
      }
      case 'ident':
        if (t.text === 'true' || t.text === 'false') {
          this.p++;
          term = { type: 'scalar', value: t.text === 'true', loc };
        } else if (t.text === 'null') {
          this.p++;
          term = { type: 'scalar', value: null, loc };
        } else if (t.text === 'set' && this.isOp('(', this.peek()) && !this.peek().ws && this.isOp(')', this.peek(2))) {
          this.p += 3;
          term = { type: 'set', items: [], loc };
        } else if (this.kw.has(t.text) && !(t.text === 'contains' && this.isOp('(', this.peek()) && !this.peek().ws)) {
          this.err(`unexpected ${t.text} keyword`);
        } else {
          this.p++;
          if (t.text === '_') term = { type: 'var', name: `_$${wildcardCounter++}`, wildcard: true, loc };
          else term = { type: 'var', name: t.text, loc };
        }
        break;
      case 'op':
        if (t.text === '[') term = this.parseArray();
        else if (t.text === '{') term = this.parseBrace();
        else if (t.text === '(') {
          this.p++;
          const saveNoOr = this.noOr;
          this.noOr = 0;
          term = this.parseTermIn(true);
          this.noOr = saveNoOr;
          this.expectOp(')');
        } else if (t.text === '-' && this.peek().kind === 'number' && !this.peek().ws) {
          this.p += 1;
          const nt = this.t;
          this.p++;
          const v = parseNumber(nt.text);
          const negated = typeof v === 'bigint' ? -v : v instanceof BigDec ? new BigDec(-v.coef, v.exp, '-' + v.text) : v === 0 ? 0 : -v;
          term = { type: 'scalar', value: negated, loc };
        } else if (t.text === '-') {
          this.p++;
          const operand = this.parseTermPrimary();
          term = this.mkCall('minus', [{ type: 'scalar', value: 0, loc }, operand], t, loc);
        } else this.err(`unexpected ${this.describe()} token`);
        break;
      case 'eof':
        this.err('unexpected eof token');
      // eslint-disable-next-line no-fallthrough
      default:
        this.err(`unexpected ${this.describe()} token`);
    }
    return this.parseRefTail(term);
  }

  private parseRefTail(term: Term): Term {
    for (;;) {
      const t = this.t;
      if (this.isOp('.') && !t.ws) {
        const nt = this.peek();
        if (nt.kind !== 'ident' || nt.ws) this.err('unexpected ' + this.describe(nt) + ' token: expected ident', nt);
        this.p += 2;
        term = appendRef(term, { type: 'scalar', value: nt.text, loc: this.loc(nt) });
      } else if (this.isOp('[') && !t.ws) {
        this.p++;
        const saveNoOr = this.noOr;
        this.noOr = 0;
        const k = this.parseTermIn(false);
        this.noOr = saveNoOr;
        this.expectOp(']');
        term = appendRef(term, k);
      } else if (this.isOp('(') && !t.ws && (term.type === 'var' || term.type === 'ref')) {
        this.p++;
        const args: Term[] = [];
        const saveNoOr = this.noOr;
        this.noOr = 0;
        while (!this.isOp(')')) {
          args.push(this.parseTermIn(false));
          if (this.isOp(',')) this.p++;
          else if (!this.isOp(')')) this.err('unexpected ' + this.describe() + ' token: expected , or )');
        }
        this.noOr = saveNoOr;
        this.p++;
        const op: RefTerm = term.type === 'ref' ? term : { type: 'ref', terms: [term], loc: term.loc };
        term = { type: 'call', op, args, loc: term.loc };
      } else return term;
    }
  }

  private parseArray(): Term {
    const open = this.t;
    const loc = this.loc(open);
    this.p++;
    if (this.isOp(']')) {
      this.p++;
      return { type: 'array', items: [], loc };
    }
    // Try comprehension: head term (without `|`) followed by `|`.
    const save = this.p;
    this.noOr++;
    let head: Term | undefined;
    try {
      head = this.parseTermIn(false);
    } catch {
      head = undefined;
    }
    this.noOr--;
    if (head && this.isOp('|')) {
      this.p++;
      const body = this.parseQueryUntil(']');
      this.expectOp(']');
      return { type: 'arraycomp', term: head, body, loc };
    }
    this.p = save;
    const saveNoOr = this.noOr;
    this.noOr = 0;
    const items: Term[] = [];
    while (!this.isOp(']')) {
      items.push(this.parseTermIn(false));
      if (this.isOp(',')) this.p++;
      else if (!this.isOp(']')) this.err('unexpected ' + this.describe() + ' token: expected , or ]');
    }
    this.noOr = saveNoOr;
    this.p++;
    return { type: 'array', items, loc } as ArrayTerm;
  }

  private parseBrace(): Term {
    const open = this.t;
    const loc = this.loc(open);
    this.p++;
    if (this.isOp('}')) {
      this.p++;
      return { type: 'object', items: [], loc };
    }
    const save = this.p;
    this.noOr++;
    let head: Term | undefined;
    let val: Term | undefined;
    try {
      head = this.parseTermIn(false);
      if (this.isOp(':')) {
        this.p++;
        val = this.parseTermIn(false);
      }
    } catch {
      head = undefined;
    }
    this.noOr--;
    if (head && this.isOp('|')) {
      this.p++;
      const body = this.parseQueryUntil('}');
      this.expectOp('}');
      if (val) return { type: 'objectcomp', key: head, value: val, body, loc };
      return { type: 'setcomp', term: head, body, loc };
    }
    this.p = save;
    const saveNoOr = this.noOr;
    this.noOr = 0;
    const first = this.parseTermIn(false);
    if (this.isOp(':')) {
      const items: [Term, Term][] = [];
      this.p++;
      items.push([first, this.parseTermIn(false)]);
      while (this.isOp(',')) {
        this.p++;
        if (this.isOp('}')) break;
        const k = this.parseTermIn(false);
        this.expectOp(':');
        items.push([k, this.parseTermIn(false)]);
      }
      this.noOr = saveNoOr;
      this.expectOp('}');
      return { type: 'object', items, loc };
    }
    const items: Term[] = [first];
    while (this.isOp(',')) {
      this.p++;
      if (this.isOp('}')) break;
      items.push(this.parseTermIn(false));
    }
    this.noOr = saveNoOr;
    this.expectOp('}');
    return { type: 'set', items, loc };
  }

  atEof(): boolean {
    return this.t.kind === 'eof';
  }
  fail(msg: string): never {
    return this.err(msg);
  }
}

/** A deep copy of a rule head: the compiler annotates terms in place, so each rule needs its own. */
function cloneHead(h: RuleHead): RuleHead {
  return {
    ...h,
    ref: h.ref.map(cloneTerm),
    args: h.args?.map(cloneTerm),
    key: h.key && cloneTerm(h.key),
    value: h.value && cloneTerm(h.value),
  };
}

function cloneTerm<T extends Term>(t: T): T {
  return JSON.parse(
    JSON.stringify(t, (_k, v) =>
      typeof v === 'bigint' ? { __bigint__: v.toString() } : v instanceof BigDec ? { __bigdec__: v.text, c: v.coef.toString(), e: v.exp } : v,
    ),
    (_k, v) =>
      v && typeof v === 'object' && typeof v.__bigint__ === 'string'
        ? BigInt(v.__bigint__)
        : v && typeof v === 'object' && typeof v.__bigdec__ === 'string'
          ? new BigDec(BigInt(v.c), v.e, v.__bigdec__)
          : v,
  ) as T;
}

function isVar(t: Term, name: string): boolean {
  return t.type === 'var' && t.name === name;
}

function appendRef(term: Term, op: Term): RefTerm {
  if (term.type === 'ref') return { type: 'ref', terms: [...term.terms, op], loc: term.loc };
  return { type: 'ref', terms: [term, op], loc: term.loc };
}

/**
 * A number literal's value: an integer (a bigint beyond the safe range), else the float that denotes it, else (more
 * digits than a float keeps, or beyond float64's range) an exact BigDec holding the literal's text.
 */
export function parseNumber(text: string): number | bigint | BigDec {
  if (/^[0-9]+$/.test(text)) {
    const n = Number(text);
    if (Number.isSafeInteger(n)) return n;
    return BigInt(text);
  }
  const f = Number(text);
  if (Number.isInteger(f) && !Number.isSafeInteger(f)) {
    // exact integer from decimal text (e.g. 1e30): digits shifted by the exponent
    const m = /^([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
    if (m) {
      let digits = m[1] + (m[2] ?? '');
      let exp = Number(m[3] ?? 0) - (m[2]?.length ?? 0);
      while (exp < 0 && digits.endsWith('0')) {
        digits = digits.slice(0, -1);
        exp++;
      }
      if (exp >= 0 && exp < 400) return BigInt(digits + '0'.repeat(exp));
    }
  }
  // up to 15 significant digits in float64's normal range, the float's shortest text is the literal's value
  if (Number.isFinite(f) && Math.abs(f) >= 2.2250738585072014e-308 && significantDigits(text) <= 15) return f;
  const d = parseDec(text);
  if (!d || d.c === 0n) return 0;
  if (Number.isFinite(f) && f !== 0 && decCompare(decOf(f), d) === 0) return f;
  return new BigDec(d.c, d.e, text);
}

function significantDigits(text: string): number {
  const e = text.search(/[eE]/);
  const mant = (e < 0 ? text : text.slice(0, e)).replace('.', '');
  return mant.replace(/^0+/, '').replace(/0+$/, '').length;
}

function attachAnnotations(mod: Module, anns: Annotation[]): void {
  // Each annotation block attaches to the package (scope package/subpackages) or to the next rule.
  for (const a of anns) {
    if (a.loc.row < mod.package.loc.row || a.scope === 'package' || a.scope === 'subpackages') {
      if (a.scope === 'rule' && a.loc.row < mod.package.loc.row) a.scope = 'package';
      mod.annotations.push(a);
      continue;
    }
    const next = mod.rules.find((r) => r.loc.row > a.loc.row);
    if (next) (next.annotations ??= []).push(a);
  }
}

export function parseModule(src: string, file: string, opts: ParseOptions = {}): Module {
  return new Parser(src, file, opts).parseModule();
}

export function parseQuery(src: string, file = 'query'): Expr[] {
  const p = new Parser(src, file);
  const body = p.parseQueryUntil('eof');
  if (body.length === 0) p.fail('empty query cannot be evaluated');
  return body;
}

export function parseTerm(src: string, file = 'term'): Term {
  const p = new Parser(src, file);
  const t = p.parseTermIn(false);
  if (!p.atEof()) p.fail('unexpected trailing input');
  return t;
}

export type { Import };
