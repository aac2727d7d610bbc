import fc from 'fast-check';
import { ExpressionContext, Node, PolicyExpressionError } from './ast';
import { compileWrapped, evaluateExpression, parseExpression, printExpression } from './index';

const ctx = (over: Partial<ExpressionContext> = {}): ExpressionContext => ({
  flow: { name: 'runner', tags: { 'risk-level': 'high', priority: '3', 'key.with.dots': 'yes', in: 'kw' } },
  artifact: { name: 'datadog:agent', fingerprint: 'a'.repeat(64) },
  ...over,
});
const run = (source: string, c: ExpressionContext = ctx()) => evaluateExpression(compileWrapped(source), c);
const errorOf = (f: () => unknown): PolicyExpressionError => {
  try {
    f();
  } catch (error) {
    if (error instanceof PolicyExpressionError) return error;
    throw error;
  }
  throw new Error('expected a PolicyExpressionError');
};

describe('policy expressions: the reference examples', () => {
  it.each([
    ['${{ matches(artifact.name, "^datadog:.*") }}', true],
    ['${{ flow.tags.risk-level == "high" }}', true],
    ['${{ flow.tags.risk-level == "high" and matches(artifact.name, "^prod:.*") }}', false],
    ['${{ flow.name == "runner" }}', true],
    ['${{ flow.tags.risk-level != "high" }}', false],
    ['${{ flow.tags.priority < 3 }}', false],
    ['${{ flow.tags.priority > 1 }}', true],
    ['${{ flow.tags.priority <= 3 }}', true],
    ['${{ flow.tags.priority >= 4 }}', false],
    ['${{ flow.name == "a" or flow.name == "runner" }}', true],
    ['${{ not flow.tags.risk-level == "high" }}', false],
    ['${{ flow.name in ["runner", "saver"] }}', true],
    ["${{ flow.name == 'prod' and (flow.tags.team == \"a\" or artifact.name == 'svc') }}", false],
    ['${{ exists(flow) }}', true],
    ['${{ flow.tags.key.with.dots == "yes" }}', true],
    ['${{ flow.tags.in == "kw" }}', true],
  ])('%s is %s', (source, expected) => expect(run(source)).toBe(expected));

  it('an artifact without a flow: flow is null, its fields are null, comparisons with them are false', () => {
    const none = ctx({ flow: null });
    expect(run('${{ exists(flow) }}', none)).toBe(false);
    expect(run('${{ flow.name == "runner" }}', none)).toBe(false);
    expect(run('${{ flow.name == null }}', none)).toBe(true);
    expect(run('${{ flow.tags.priority > 1 }}', none)).toBe(false);
    expect(run('${{ exists(flow.tags.team) }}', ctx())).toBe(false);
  });

  it('precedence: not over comparison, and over or; parentheses group', () => {
    expect(run('${{ true or false and false }}')).toBe(true);
    expect(run('${{ (true or false) and false }}')).toBe(false);
    expect(run('${{ not false and false }}')).toBe(false);
    expect(run('${{ not (false and false) }}')).toBe(true);
    expect(run('${{ not not true }}')).toBe(true);
  });

  it('short-circuits as written, so a guard protects what follows', () => {
    expect(run('${{ false and (flow.name) }}')).toBe(false);
    expect(() => run('${{ true and (flow.name) }}')).toThrow(PolicyExpressionError);
  });
});

describe('policy expressions: errors name a column', () => {
  it.each([
    ['${{ flow.name == }}', 18, 'ends where a value was expected'],
    ['${{ flow.nam == "x" }}', 5, "unknown field 'flow.nam'"],
    ['${{ build.id == "x" }}', 5, "unknown name 'build'"],
    ['${{ flow.name = "x" }}', 15, "unexpected character '='"],
    ['${{ a == b == c }}', 5, "unknown name 'a'"],
    ['${{ flow.name == "a" == true }}', 22, 'do not chain'],
    ['${{ matches(artifact.name, "(") }}', 28, 'invalid regular expression'],
    ['${{ matches(artifact.name, "(a)\\\\1") }}', 28, 'invalid regular expression'],
    ['${{ matches(artifact.name) }}', 5, 'takes 2 arguments'],
    ['${{ len(flow.name) }}', 5, "unknown function 'len'"],
    ['${{ "unterminated }}', 5, 'unterminated string'],
    ['${{ (flow.name == "x" }}', 23, "expected ')'"],
    ['${{ flow. }}', 9, 'must not end with a dot'],
    ['${{ flow.tags }}', 5, 'needs a tag key'],
    ['${{   }}', 4, 'empty'],
    ['flow.name == "x"', 1, 'written ${{ ... }}'],
  ])('%s: column %d, %s', (source, column, text) => {
    const e = errorOf(() => compileWrapped(source));
    expect(e.phase).toBe('parse');
    expect(e.position).toBe(column);
    expect(e.message).toContain(text);
  });

  it('an expression that does not yield a boolean is an evaluation error at its position', () => {
    for (const [source, column] of [
      ['${{ flow.name }}', 5],
      ['${{ "text" }}', 5],
      ['${{ [true] }}', 5],
      ['${{ 1 }}', 5],
      ['${{ flow.name and true }}', 5],
      ['${{ true and artifact.name }}', 14],
      ['${{ not flow.name }}', 9],
      ['${{ flow.name in flow.name }}', 18],
      ['${{ matches(flow.name, flow.name) and true }}', 24],
    ] as const) {
      const node = compileWrapped(source);
      const e = errorOf(() => evaluateExpression(node, ctx({ flow: { name: 'x(', tags: {} } })));
      expect([source, e.phase, e.position]).toEqual([source, 'evaluation', column]);
    }
  });

  it('deep nesting is refused at 64 levels, not a stack overflow', () => {
    expect(run(`\${{ ${'('.repeat(60)}true${')'.repeat(60)} }}`)).toBe(true);
    expect(errorOf(() => compileWrapped(`\${{ ${'('.repeat(100_000)}true${')'.repeat(100_000)} }}`)).message).toContain('longer than');
    expect(errorOf(() => compileWrapped(`\${{ ${'('.repeat(65)}true${')'.repeat(65)} }}`)).message).toContain('64 levels');
    expect(errorOf(() => compileWrapped(`\${{ ${'not '.repeat(65)}true }}`)).message).toContain('64 levels');
    expect(errorOf(() => compileWrapped(`\${{ ${'['.repeat(65)}${']'.repeat(65)} }}`)).message).toContain('64 levels');
  });

  it('a pattern that backtracks catastrophically elsewhere runs in linear time here', () => {
    const long = 'a'.repeat(50_000) + '!';
    const node = compileWrapped('${{ matches(artifact.name, "^(a+)+$") }}');
    expect(evaluateExpression(node, ctx({ artifact: { name: long, fingerprint: '' } }))).toBe(false);
  });
});

// Generated trees: printing one and parsing the text gives the same tree (positions aside).
const strip = (node: Node): unknown => {
  const { pos: _pos, ...rest } = node as Node & Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  for (const key of ['left', 'right', 'operand']) if (out[key]) out[key] = strip(out[key] as Node);
  for (const key of ['items', 'args']) if (out[key]) out[key] = (out[key] as Node[]).map(strip);
  return out;
};
const tagKey = fc.stringMatching(/^[a-z0-9_-]{1,6}(\.[a-z0-9_-]{1,6}){0,2}$/);
const leaf: fc.Arbitrary<Node> = fc.oneof(
  fc.string({ maxLength: 8 }).map((value) => ({ kind: 'literal' as const, pos: 0, value })),
  fc.integer({ min: -1000, max: 1000 }).map((value) => ({ kind: 'literal' as const, pos: 0, value })),
  fc.boolean().map((value) => ({ kind: 'literal' as const, pos: 0, value })),
  fc.constant({ kind: 'literal' as const, pos: 0, value: null }),
  fc.constantFrom('name', 'fingerprint').map((name) => ({ kind: 'path' as const, pos: 0, context: 'artifact' as const, field: { name } })),
  fc.constant({ kind: 'path' as const, pos: 0, context: 'flow' as const, field: { name: 'name' as const } }),
  tagKey.map((tag) => ({ kind: 'path' as const, pos: 0, context: 'flow' as const, field: { tag } })),
);
const tree = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ kind: fc.constant('not' as const), pos: fc.constant(0), operand: tie('node') }),
    fc.record({ kind: fc.constant('logical' as const), pos: fc.constant(0), op: fc.constantFrom('and' as const, 'or' as const), left: tie('node'), right: tie('node') }),
    fc.record({
      kind: fc.constant('compare' as const),
      pos: fc.constant(0),
      op: fc.constantFrom('==' as const, '!=' as const, '<' as const, '>' as const, '<=' as const, '>=' as const, 'in' as const),
      left: tie('node'),
      right: tie('node'),
    }),
    fc.record({ kind: fc.constant('list' as const), pos: fc.constant(0), items: fc.array(tie('node'), { maxLength: 3 }) }),
    fc.record({ kind: fc.constant('call' as const), pos: fc.constant(0), fn: fc.constant('exists' as const), args: fc.tuple(tie('node')) }),
  ),
})).node;

describe('policy expressions: properties', () => {
  it('print then parse is the identity on trees', () => {
    fc.assert(
      fc.property(tree, (node) => {
        let text: string;
        try {
          text = printExpression(node);
          expect(strip(parseExpression(text))).toEqual(strip(node));
        } catch (error) {
          // Trees deeper than the nesting limit are refused, by name.
          if (error instanceof PolicyExpressionError && error.message.includes('levels deep')) return;
          throw error;
        }
      }),
      { numRuns: 500, seed: 23 },
    );
  });

  it('evaluation of any tree gives a boolean or a PolicyExpressionError, nothing else', () => {
    fc.assert(
      fc.property(tree, fc.boolean(), (node, hasFlow) => {
        try {
          expect(typeof evaluateExpression(node, ctx(hasFlow ? {} : { flow: null }))).toBe('boolean');
        } catch (error) {
          expect(error).toBeInstanceOf(PolicyExpressionError);
        }
      }),
      { numRuns: 500, seed: 23 },
    );
  });

  it('any text parses or fails with a PolicyExpressionError whose column lies inside it', () => {
    const alphabet = fc.constantFrom(...'()[],."\'=!<> \tandornotinflowartifactnametags.exists matches-_0123456789x\\'.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 60 }).map((cs) => cs.join('')), (text) => {
        try {
          parseExpression(text);
        } catch (error) {
          expect(error).toBeInstanceOf(PolicyExpressionError);
          const e = error as PolicyExpressionError;
          expect(e.position).toBeGreaterThanOrEqual(1);
          expect(e.position).toBeLessThanOrEqual(text.length + 1);
        }
      }),
      { numRuns: 2000, seed: 23 },
    );
  });
});
