import { RE2JS } from 're2js';
import { ExpressionContext, Node, PolicyExpressionError } from './ast';

type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

/**
 * Regular expressions run on RE2 (re2js): matching is linear in the input, so no pattern can hang the
 * service. Compiled patterns are kept (a policy's patterns are few and evaluated for every artifact).
 */
const compiled = new Map<string, RE2JS>();
const MAX_PATTERNS = 10_000;

export function compileRegex(pattern: string, pos: number, phase: 'parse' | 'evaluation'): RE2JS {
  let re = compiled.get(pattern);
  if (re) return re;
  try {
    re = RE2JS.compile(pattern);
  } catch (error) {
    throw new PolicyExpressionError(`invalid regular expression "${pattern}": ${(error as Error).message}`, pos, phase);
  }
  if (compiled.size >= MAX_PATTERNS) compiled.clear();
  compiled.set(pattern, re);
  return re;
}

/** Checks what can be checked before any evaluation: literal regular expressions compile. */
export function checkStatically(node: Node): void {
  const stack: Node[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    switch (n.kind) {
      case 'call':
        if (n.fn === 'matches' && n.args[1].kind === 'literal') {
          const pattern = n.args[1].value;
          if (typeof pattern !== 'string') throw new PolicyExpressionError('the regular expression of matches() must be a string', n.args[1].pos, 'parse');
          compileRegex(pattern, n.args[1].pos, 'parse');
        }
        stack.push(...n.args);
        break;
      case 'list':
        stack.push(...n.items);
        break;
      case 'not':
        stack.push(n.operand);
        break;
      case 'logical':
      case 'compare':
        stack.push(n.left, n.right);
        break;
    }
  }
}

const typeName = (v: Value) => (v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v === 'object' ? 'object' : typeof v);

/** A number, or a string that is one (tags are strings: `flow.tags.priority < 3`). */
function asNumber(v: Value): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^-?[0-9]+(\.[0-9]+)?$/.test(v.trim())) return Number(v);
  return undefined;
}

function equal(a: Value, b: Value): boolean {
  if (a === b) return true;
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined && (typeof a === 'number' || typeof b === 'number')) return x === y;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => equal(v, b[i]));
  return false;
}

function value(node: Node, ctx: ExpressionContext): Value {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'list':
      return node.items.map((item) => value(item, ctx));
    case 'path': {
      if (node.context === 'artifact') {
        if ('whole' in node.field) return { ...ctx.artifact };
        return 'name' in node.field ? ctx.artifact[node.field.name as 'name' | 'fingerprint'] : null;
      }
      const flow = ctx.flow;
      if (!flow) return null;
      if ('whole' in node.field) return { name: flow.name, tags: { ...flow.tags } };
      if ('tag' in node.field) return Object.prototype.hasOwnProperty.call(flow.tags, node.field.tag) ? flow.tags[node.field.tag] : null;
      return flow.name;
    }
    case 'call': {
      if (node.fn === 'exists') return value(node.args[0], ctx) !== null;
      const input = value(node.args[0], ctx);
      const pattern = value(node.args[1], ctx);
      if (typeof pattern !== 'string') throw new PolicyExpressionError(`the regular expression of matches() is ${typeName(pattern)}, not a string`, node.args[1].pos, 'evaluation');
      if (input === null) return false;
      if (typeof input !== 'string' && typeof input !== 'number') {
        throw new PolicyExpressionError(`matches() reads text, not ${typeName(input)}`, node.args[0].pos, 'evaluation');
      }
      return compileRegex(pattern, node.args[1].pos, 'evaluation').matcher(String(input)).find();
    }
    case 'not':
      return !boolean(node.operand, ctx, 'not');
    case 'logical':
      // Short-circuit, as written: `exists(flow) and flow.name == "x"`.
      if (node.op === 'and') return boolean(node.left, ctx, 'and') && boolean(node.right, ctx, 'and');
      return boolean(node.left, ctx, 'or') || boolean(node.right, ctx, 'or');
    case 'compare': {
      const left = value(node.left, ctx);
      const right = value(node.right, ctx);
      switch (node.op) {
        case '==':
          return equal(left, right);
        case '!=':
          return !equal(left, right);
        case 'in':
          if (!Array.isArray(right)) throw new PolicyExpressionError(`'in' needs a list on its right, not ${typeName(right)}`, node.right.pos, 'evaluation');
          return right.some((item) => equal(left, item));
        default:
          return order(node.op, left, right);
      }
    }
  }
}

/** `<` `>` `<=` `>=`: numbers (or numeric tags) by value, text by code point; anything else (a missing tag) is false. */
function order(op: '<' | '>' | '<=' | '>=', left: Value, right: Value): boolean {
  const x = asNumber(left);
  const y = asNumber(right);
  let c: number;
  if (x !== undefined && y !== undefined) c = x - y;
  else if (typeof left === 'string' && typeof right === 'string') c = left < right ? -1 : left > right ? 1 : 0;
  else return false;
  return op === '<' ? c < 0 : op === '>' ? c > 0 : op === '<=' ? c <= 0 : c >= 0;
}

function boolean(node: Node, ctx: ExpressionContext, what: string): boolean {
  const v = value(node, ctx);
  if (typeof v !== 'boolean') throw new PolicyExpressionError(`'${what}' needs true or false, not ${typeName(v)}`, node.pos, 'evaluation');
  return v;
}

/** Evaluates a parsed expression; anything but a boolean result is an evaluation error at the node's position. */
export function evaluateExpression(node: Node, ctx: ExpressionContext): boolean {
  const v = value(node, ctx);
  if (typeof v !== 'boolean') throw new PolicyExpressionError(`the expression yields ${typeName(v)}, not true or false`, node.pos, 'evaluation');
  return v;
}
