import { parseLimitedYaml, YamlLimitError, YamlLimits } from './limited-yaml';

const STRICT: YamlLimits = { maxAliasCount: 0, maxDepth: 4, refuseUnknownTags: true };
const LENIENT: YamlLimits = { maxAliasCount: 10, maxDepth: 64, refuseUnknownTags: false };
const problem = (source: string, limits = STRICT) => {
  try {
    parseLimitedYaml(source, limits);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(YamlLimitError);
    return (error as Error).message;
  }
};

describe('parseLimitedYaml', () => {
  it('reads a plain document', () => {
    expect(parseLimitedYaml('version: 1\ntrail:\n  attestations:\n    - {name: a, type: generic}\n', STRICT)).toEqual({
      version: 1,
      trail: { attestations: [{ name: 'a', type: 'generic' }] },
    });
  });

  it('refuses aliases when none are allowed, and an unresolved alias always', () => {
    expect(problem('a: &x 1\nb: *x\n')).toBe('must not use aliases (*x)');
    expect(problem('a: *nowhere\n')).toBe('must not use aliases (*nowhere)');
    expect(problem('a: *nowhere\n', LENIENT)).toMatch(/^cannot be read: /);
    expect(parseLimitedYaml('a: &x 1\nb: *x\n', LENIENT)).toEqual({ a: 1, b: 1 });
  });

  it('stops an anchor bomb at the alias limit', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]'].join('\n');
    expect(problem(bomb, LENIENT)).toMatch(/^cannot be read: /);
  });

  it('refuses nesting past the limit, however it is written, without overflowing the stack', () => {
    expect(problem('a: [[[1]]]\n')).toBeNull();
    expect(problem('a: [[[[1]]]]\n')).toBe('nests more than 4 levels deep');
    expect(problem('a:\n  b:\n    c:\n      d:\n        e: 1\n')).toBe('nests more than 4 levels deep');
    expect(problem('a: ' + '['.repeat(100_000) + ']'.repeat(100_000))).not.toBeNull();
  });

  it('finds duplicate keys, also in a large mapping (the check of the parser itself is quadratic: seconds for 20,000 keys)', () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => `k${i}: ${i}`);
    expect(problem([...keys, 'k7: again'].join('\n'), LENIENT)).toBe('is not valid YAML: map keys must be unique (k7)');
    expect(problem(keys.join('\n'), LENIENT)).toBeNull();
  });

  it('refuses unknown tags when asked to, and reports syntax errors and several documents', () => {
    expect(problem('a: !!js/function "f"\n')).toMatch(/^uses a tag this service does not read/);
    expect(problem('a: !!js/function "f"\n', LENIENT)).toBeNull();
    expect(problem('a: [1\n')).toMatch(/^is not valid YAML: /);
    expect(problem('a: 1\na: 2\n')).toMatch(/^is not valid YAML: /);
    expect(problem('a: 1\n---\nb: 2\n')).toMatch(/^is not valid YAML: /);
  });
});
