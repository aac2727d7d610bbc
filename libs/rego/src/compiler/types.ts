/**
 * Types shared by the compiler's stages and the evaluator (a leaf: no stage imports another through it):
 * compile options, the compiled query, and `PolicyView`, what checks and the query compiler read of a compiled
 * policy.
 */
import type { Expr, Module } from '../ast/types';
import type { BuiltinDecl } from '../builtins/contract';
import type { Capabilities } from '../builtins/capabilities';
import type { RuleNode } from './tree';

export interface CompileOptions {
  strict?: boolean;
  /** Custom builtins, added to (or replacing) those available. */
  builtins?: BuiltinDecl[];
  /**
   * OPA capabilities: the builtins available are exactly those listed (unknown names are declared from the file,
   * see builtins/capabilities.ts); `builtins` still adds to them.
   */
  capabilities?: Capabilities;
  /** Syntax modules are parsed with: 1 (default, OPA 1.x) or 0 (OPA's `--v0-compatible`). */
  regoVersion?: 0 | 1;
  /** Per file name, overriding `regoVersion` (a bundle manifest's `file_rego_versions`). */
  fileRegoVersions?: Record<string, 0 | 1>;
  /**
   * For test runners (`opa test`'s compiler stage): each parameterized test rule (`test_x[case] if { ... }`)
   * calls `internal.test_case([case])` as soon as its case is bound, so a runner can name the cases that were
   * reached but failed (see compiler/test-cases.ts). Off for policies.
   */
  testCases?: boolean;
}

export interface CompiledQuery {
  body: Expr[];
  nslots: number;
  slotNames: string[];
  /** named (non-wildcard) query vars, in order of first appearance */
  outputs: Array<[string, number]>;
}

/** The parts of a compiled policy the checks and the query compiler read. */
export interface PolicyView {
  readonly root: RuleNode;
  readonly funcs: Map<string, RuleNode>;
  readonly modules: Module[];
  readonly builtins: Map<string, BuiltinDecl>;
  /** arity of a function or builtin (Infinity for variadic builtins), undefined for unknown names */
  arityOf(name: string): number | undefined;
}
