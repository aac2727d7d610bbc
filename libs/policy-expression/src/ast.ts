/** The syntax tree of a policy expression (grammar.ebnf). `pos` is the 1-based column of the node's first character. */
export type Node =
  | { kind: 'literal'; pos: number; value: string | number | boolean | null }
  | { kind: 'list'; pos: number; items: Node[] }
  | { kind: 'path'; pos: number; context: 'flow' | 'artifact'; field: PathField }
  | { kind: 'call'; pos: number; fn: 'exists' | 'matches'; args: Node[] }
  | { kind: 'not'; pos: number; operand: Node }
  | { kind: 'logical'; pos: number; op: 'and' | 'or'; left: Node; right: Node }
  | { kind: 'compare'; pos: number; op: CompareOp; left: Node; right: Node };

export type CompareOp = '==' | '!=' | '<' | '>' | '<=' | '>=' | 'in';

/** What a path reads: the whole context object, one of its fields, or one flow tag. */
export type PathField = { whole: true } | { name: 'name' | 'fingerprint' } | { tag: string };

/** Any problem with an expression, with the 1-based column it was found at. */
export class PolicyExpressionError extends Error {
  constructor(
    message: string,
    readonly position: number,
    readonly phase: 'parse' | 'evaluation',
  ) {
    super(`${message} (at column ${position})`);
    this.name = 'PolicyExpressionError';
  }
}

/** What an expression is evaluated against. `flow` is null for an artifact no flow reported. */
export interface ExpressionContext {
  flow: { name: string; tags: Record<string, string> } | null;
  artifact: { name: string; fingerprint: string };
}

export const MAX_EXPRESSION_LENGTH = 4096;
export const MAX_NESTING = 64;
