import { Node } from './ast';

const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** Prints a tree back as an expression that parses to the same tree (fully parenthesized). */
export function printExpression(node: Node): string {
  switch (node.kind) {
    case 'literal':
      return typeof node.value === 'string' ? quote(node.value) : String(node.value);
    case 'list':
      return `[${node.items.map(printExpression).join(', ')}]`;
    case 'path': {
      const f = node.field;
      return 'whole' in f ? node.context : 'tag' in f ? `${node.context}.tags.${f.tag}` : `${node.context}.${f.name}`;
    }
    case 'call':
      return `${node.fn}(${node.args.map(printExpression).join(', ')})`;
    case 'not':
      return `(not ${printExpression(node.operand)})`;
    case 'logical':
    case 'compare':
      return `(${printExpression(node.left)} ${node.op} ${printExpression(node.right)})`;
  }
}
