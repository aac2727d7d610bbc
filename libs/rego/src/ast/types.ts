/** Rego AST. Every node carries its source location; the compiler annotates nodes in place (slots, indexes). */
import type { Location } from '../errors';
import type { Value } from '../value';

export type Term =
  | ScalarTerm
  | VarTerm
  | RefTerm
  | ArrayTerm
  | ObjectTerm
  | SetTerm
  | CallTerm
  | ArrayCompTerm
  | SetCompTerm
  | ObjectCompTerm
  | TemplateTerm;

/** Template string `$"Hello, {input.name}!"`: literal text and embedded terms (undefined renders `<undefined>`). */
export interface TemplateTerm {
  type: 'template';
  parts: Array<string | Term>;
  loc: Location;
}

export interface ScalarTerm {
  type: 'scalar';
  value: Value; // null | boolean | number | bigint | string
  loc: Location;
}

export interface VarTerm {
  type: 'var';
  name: string;
  loc: Location;
  /** Frame slot, set by the compiler for local vars; -1 for globals (input/data/imports) */
  slot?: number;
  /** true for `_` (each occurrence a fresh var) */
  wildcard?: boolean;
}

/** `head.a[b]...`: terms[0] is the head (var, call or composite), the rest are operands. */
export interface RefTerm {
  type: 'ref';
  terms: Term[];
  loc: Location;
  /** compiler: static data path prefix length (terms) when the ref is rooted at data (after import resolution) */
  ground?: boolean;
}

export interface ArrayTerm {
  type: 'array';
  items: Term[];
  loc: Location;
}

export interface ObjectTerm {
  type: 'object';
  items: [Term, Term][];
  loc: Location;
}

export interface SetTerm {
  type: 'set';
  items: Term[];
  loc: Location;
}

/** Call of a builtin or function: op is a ref (e.g. `count`, `data.pkg.f`, `strings.replace_n`). */
export interface CallTerm {
  type: 'call';
  op: RefTerm;
  args: Term[];
  loc: Location;
  /** compiler: resolved name ("count", "data.pkg.f") */
  name?: string;
  /** compiler: declared arity (args beyond it are outputs) */
  arity?: number;
  /** compiler: constant result (rego.metadata.chain/rule are resolved statically) */
  constValue?: Value;
}

/** Comprehension index (OPA's comprehension indexing): the body depends on outer vars only through equalities. */
export interface CompIndex {
  /** comprehension-side key terms, evaluated after `body` */
  keys: Term[];
  /** outer (closure) vars matched against the keys */
  outer: Term[];
  /** the body without the key equalities */
  body: Expr[];
}

export interface ArrayCompTerm {
  type: 'arraycomp';
  /** compiler: the array only feeds an order-insensitive builtin (count, sum, ...), so order need not be kept */
  unordered?: boolean;
  /** compiler: slots local to this comprehension */
  locals?: number[];
  index?: CompIndex;
  term: Term;
  body: Expr[];
  loc: Location;
}

export interface SetCompTerm {
  type: 'setcomp';
  locals?: number[];
  index?: CompIndex;
  term: Term;
  body: Expr[];
  loc: Location;
}

export interface ObjectCompTerm {
  type: 'objectcomp';
  locals?: number[];
  index?: CompIndex;
  key: Term;
  value: Term;
  body: Expr[];
  loc: Location;
}

export interface With {
  target: RefTerm;
  value: Term;
  loc: Location;
  /** compiler: what the target names */
  kind?: 'input' | 'data' | 'func';
  /** compiler: path under input/data, or the function name ("count", "data.pkg.f") */
  path?: string[];
  funcName?: string;
  /** compiler: when the value is itself a function/builtin reference, its name */
  valueFunc?: string;
}

export type Expr = TermExpr | UnifyExpr | AssignExpr | SomeExpr | SomeInExpr | EveryExpr;

interface ExprBase {
  loc: Location;
  negated: boolean;
  with: With[];
}

/** A term used as a literal: true unless undefined or false. Calls (incl. infix operators) are CallTerms. */
export interface TermExpr extends ExprBase {
  kind: 'term';
  term: Term;
}

export interface UnifyExpr extends ExprBase {
  kind: 'unify';
  left: Term;
  right: Term;
}

export interface AssignExpr extends ExprBase {
  kind: 'assign';
  left: Term;
  right: Term;
}

/** `some x, y` declaration */
export interface SomeExpr extends ExprBase {
  kind: 'some';
  vars: VarTerm[];
}

/** `some v in xs` / `some k, v in xs` */
export interface SomeInExpr extends ExprBase {
  kind: 'somein';
  key?: Term;
  value: Term;
  collection: Term;
}

/** `every v in xs { ... }` / `every k, v in xs { ... }` */
export interface EveryExpr extends ExprBase {
  kind: 'every';
  key?: VarTerm;
  value: VarTerm;
  domain: Term;
  body: Expr[];
  locals?: number[];
}

export interface RuleHead {
  /** rule path as written: first term is a var, the rest are operands (strings for `.x`, any term for `[x]`) */
  ref: Term[];
  args?: Term[];
  /** `contains` key (partial set member) */
  key?: Term;
  /** value term; undefined for `contains` rules */
  value?: Term;
  assign: boolean;
  contains: boolean;
  loc: Location;
}

export interface Rule {
  head: RuleHead;
  body: Expr[];
  default: boolean;
  /** `else` chain (for complete rules and functions) */
  else?: Rule;
  loc: Location;
  module: Module;
  annotations?: Annotation[];
  /** compiler fields */
  path?: string[]; // ground path of the rule under data (package path + ground head prefix)
  nslots?: number;
  /** set when the body had no explicit body (`p := 1`) */
  implicitBody?: boolean;
  kind?: 'complete' | 'multi' | 'object' | 'function';
  /** head ref operands after the ground path (keys of object/multi rules) */
  dyn?: Term[];
  slotNames?: string[];
}

export interface Import {
  path: RefTerm;
  alias?: string;
  loc: Location;
}

export interface Annotation {
  scope: string;
  loc: Location;
  /** YAML fields as parsed (title, description, custom, ...) */
  fields: Record<string, unknown>;
}

export interface Module {
  file: string;
  package: { path: string[]; loc: Location };
  imports: Import[];
  rules: Rule[];
  annotations: Annotation[];
  /** whether `import rego.v1` was present */
  regoV1?: boolean;
  /** the rules the module was parsed under: 1 for v1, and for v0 modules importing rego.v1; 0 for plain v0 */
  regoVersion?: 0 | 1;
}
