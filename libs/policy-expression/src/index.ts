export { PolicyExpressionError, MAX_EXPRESSION_LENGTH, MAX_NESTING } from './ast';
export type { ExpressionContext, Node } from './ast';
export { parseExpression, parseWrapped } from './parser';
export { checkStatically, evaluateExpression } from './evaluate';
export { printExpression } from './print';

import { Node } from './ast';
import { checkStatically } from './evaluate';
import { parseWrapped } from './parser';

/** Parses `${{ ... }}` and checks its literal regular expressions: what saving a policy requires. */
export function compileWrapped(source: string): Node {
  const node = parseWrapped(source);
  checkStatically(node);
  return node;
}
