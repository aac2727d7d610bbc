import { CompareOp, MAX_EXPRESSION_LENGTH, MAX_NESTING, Node, PathField, PolicyExpressionError } from './ast';

/** A recursive-descent parser for grammar.ebnf: one method per rule. Never evaluates anything. */

type Token =
  | { t: 'string'; pos: number; value: string }
  | { t: 'number'; pos: number; value: number }
  | { t: 'word'; pos: number; value: string }
  | { t: 'op'; pos: number; value: string }
  | { t: 'end'; pos: number };

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'true', 'false', 'null']);
const FUNCTIONS = new Set(['exists', 'matches']);
const WORD = /[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*/y;
const NUMBER = /-?[0-9]+(?:\.[0-9]+)?(?![A-Za-z0-9_.])/y;
const OPERATORS = ['==', '!=', '<=', '>=', '<', '>', '(', ')', '[', ']', ','];

function tokenize(text: string, base: number): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const pos = base + i;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= text.length) throw new PolicyExpressionError('unterminated string', pos, 'parse');
        const d = text[j];
        if (d === c) break;
        if (d === '\\') {
          const e = text[j + 1];
          if (e !== c && e !== '\\') throw new PolicyExpressionError(`unknown escape \\${e ?? ''} in a string (only \\${c} and \\\\)`, base + j, 'parse');
          value += e;
          j += 2;
          continue;
        }
        value += d;
        j++;
      }
      tokens.push({ t: 'string', pos, value });
      i = j + 1;
      continue;
    }
    NUMBER.lastIndex = i;
    const num = NUMBER.exec(text);
    if (num) {
      tokens.push({ t: 'number', pos, value: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(text);
    if (word) {
      if (text[i + word[0].length] === '.') throw new PolicyExpressionError('a path must not end with a dot', base + i + word[0].length, 'parse');
      tokens.push({ t: 'word', pos, value: word[0] });
      i += word[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (op) {
      tokens.push({ t: 'op', pos, value: op });
      i += op.length;
      continue;
    }
    throw new PolicyExpressionError(`unexpected character '${c}'`, pos, 'parse');
  }
  tokens.push({ t: 'end', pos: base + text.length });
  return tokens;
}

const describe = (tok: Token) => (tok.t === 'end' ? 'the end of the expression' : tok.t === 'string' ? `"${tok.value}"` : `'${tok.value}'`);

class Parser {
  private i = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): Node {
    const node = this.or();
    const tok = this.peek();
    if (tok.t !== 'end') throw this.error(`unexpected ${describe(tok)}: expected and, or, or the end of the expression`, tok);
    return node;
  }

  private peek(): Token {
    return this.tokens[this.i];
  }

  private next(): Token {
    return this.tokens[this.i++];
  }

  private isWord(value: string): boolean {
    const tok = this.peek();
    return tok.t === 'word' && tok.value === value;
  }

  private isOp(value: string): boolean {
    const tok = this.peek();
    return tok.t === 'op' && tok.value === value;
  }

  private expectOp(value: string, what: string): void {
    const tok = this.next();
    if (tok.t !== 'op' || tok.value !== value) throw this.error(`expected '${value}' ${what}, found ${describe(tok)}`, tok);
  }

  private error(message: string, tok: Token): PolicyExpressionError {
    return new PolicyExpressionError(message, tok.pos, 'parse');
  }

  private nested<T>(at: Token, inner: () => T): T {
    if (++this.depth > MAX_NESTING) throw this.error(`nests more than ${MAX_NESTING} levels deep`, at);
    try {
      return inner();
    } finally {
      this.depth--;
    }
  }

  private or(): Node {
    let left = this.and();
    while (this.isWord('or')) {
      const op = this.next();
      left = { kind: 'logical', pos: op.pos, op: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): Node {
    let left = this.not();
    while (this.isWord('and')) {
      const op = this.next();
      left = { kind: 'logical', pos: op.pos, op: 'and', left, right: this.not() };
    }
    return left;
  }

  private not(): Node {
    if (this.isWord('not')) {
      const tok = this.next();
      return this.nested(tok, () => ({ kind: 'not', pos: tok.pos, operand: this.not() }));
    }
    return this.comparison();
  }

  private comparison(): Node {
    const left = this.operand();
    const tok = this.peek();
    let op: CompareOp | undefined;
    if (tok.t === 'op' && ['==', '!=', '<', '>', '<=', '>='].includes(tok.value)) op = tok.value as CompareOp;
    else if (tok.t === 'word' && tok.value === 'in') op = 'in';
    if (!op) return left;
    this.next();
    const right = this.operand();
    const after = this.peek();
    if ((after.t === 'op' && ['==', '!=', '<', '>', '<=', '>='].includes(after.value)) || (after.t === 'word' && after.value === 'in')) {
      throw this.error(`comparisons do not chain: put parentheses around one of them`, after);
    }
    return { kind: 'compare', pos: tok.pos, op, left, right };
  }

  private operand(): Node {
    const tok = this.next();
    switch (tok.t) {
      case 'string':
      case 'number':
        return { kind: 'literal', pos: tok.pos, value: tok.value };
      case 'end':
        throw this.error('the expression ends where a value was expected', tok);
      case 'op':
        if (tok.value === '(') {
          return this.nested(tok, () => {
            const inner = this.or();
            this.expectOp(')', 'to close the parenthesis');
            return inner;
          });
        }
        if (tok.value === '[') return this.nested(tok, () => ({ kind: 'list', pos: tok.pos, items: this.items(']') }));
        throw this.error(`unexpected '${tok.value}' where a value was expected`, tok);
      case 'word':
        return this.word(tok);
    }
  }

  private items(close: string): Node[] {
    const items: Node[] = [];
    if (this.isOp(close)) {
      this.next();
      return items;
    }
    for (;;) {
      items.push(this.or());
      const tok = this.next();
      if (tok.t === 'op' && tok.value === close) return items;
      if (tok.t !== 'op' || tok.value !== ',') throw this.error(`expected ',' or '${close}', found ${describe(tok)}`, tok);
    }
  }

  private word(tok: Extract<Token, { t: 'word' }>): Node {
    const value = tok.value;
    if (value === 'true' || value === 'false') return { kind: 'literal', pos: tok.pos, value: value === 'true' };
    if (value === 'null') return { kind: 'literal', pos: tok.pos, value: null };
    if (KEYWORDS.has(value)) throw this.error(`unexpected '${value}' where a value was expected`, tok);
    if (FUNCTIONS.has(value) && this.isOp('(')) {
      const open = this.next();
      const args = this.nested(open, () => this.items(')'));
      const fn = value as 'exists' | 'matches';
      const arity = fn === 'exists' ? 1 : 2;
      if (args.length !== arity) throw this.error(`${fn}() takes ${arity} argument${arity > 1 ? 's' : ''}, not ${args.length}`, tok);
      return { kind: 'call', pos: tok.pos, fn, args };
    }
    if (this.isOp('(')) throw this.error(`unknown function '${value}': the functions are exists() and matches()`, tok);
    return { kind: 'path', pos: tok.pos, ...resolvePath(value, tok.pos) };
  }
}

function resolvePath(text: string, pos: number): { context: 'flow' | 'artifact'; field: PathField } {
  const [root, ...rest] = text.split('.');
  const fail = (message: string) => new PolicyExpressionError(message, pos, 'parse');
  if (root === 'flow') {
    if (rest.length === 0) return { context: 'flow', field: { whole: true } };
    if (rest[0] === 'name' && rest.length === 1) return { context: 'flow', field: { name: 'name' } };
    if (rest[0] === 'tags') {
      if (rest.length === 1) throw fail('flow.tags needs a tag key: flow.tags.<key>');
      return { context: 'flow', field: { tag: rest.slice(1).join('.') } };
    }
    throw fail(`unknown field '${text}': flow has name and tags.<key>`);
  }
  if (root === 'artifact') {
    if (rest.length === 0) return { context: 'artifact', field: { whole: true } };
    if (rest.length === 1 && (rest[0] === 'name' || rest[0] === 'fingerprint')) return { context: 'artifact', field: { name: rest[0] } };
    throw fail(`unknown field '${text}': artifact has name and fingerprint`);
  }
  throw fail(`unknown name '${root}': the contexts are flow and artifact`);
}

/** Parses the text between `${{` and `}}`; `base` is the column of its first character (for positions). */
export function parseExpression(text: string, base = 1): Node {
  if (text.length > MAX_EXPRESSION_LENGTH) throw new PolicyExpressionError(`is longer than ${MAX_EXPRESSION_LENGTH} characters`, base, 'parse');
  return new Parser(tokenize(text, base)).parse();
}

const WRAPPED = /^\s*\$\{\{([\s\S]*)\}\}\s*$/;

/**
 * Parses an `if` value as written in a policy: `${{ <expression> }}`. Positions are columns of the value as
 * written (the `$` of `${{` is column 1 when nothing precedes it).
 */
export function parseWrapped(source: string): Node {
  const m = WRAPPED.exec(source);
  if (!m) throw new PolicyExpressionError('an expression is written ${{ ... }}', 1, 'parse');
  const base = source.indexOf('${{') + 4;
  if (m[1].trim() === '') throw new PolicyExpressionError('the expression is empty', base, 'parse');
  return parseExpression(m[1], base);
}
