import { call } from './spec-helpers';

describe('regex (RE2) and glob builtins', () => {
  it('matches, splits and finds', () => {
    expect(call('regex.match', '^a+$', 'aaa')).toBe(true);
    expect(call('re_match', 'b', 'abc')).toBe(true);
    expect(call('regex.is_valid', '(')).toBe(false);
    expect(() => call('regex.match', '(', 'x')).toThrow('error parsing regexp: missing closing ): `(`');
    expect(call('regex.split', 'a+', 'baac')).toEqual(['b', 'c']);
    expect(call('regex.split', ',', 'a,b,')).toEqual(['a', 'b', '']);
    expect(call('regex.find_n', 'a.', 'abacad', 2)).toEqual(['ab', 'ac']);
    expect(call('regex.find_n', 'a.', 'abacad', -1)).toEqual(['ab', 'ac', 'ad']);
    expect(call('regex.find_all_string_submatch_n', '(a)(b)?', 'abac', -1)).toEqual([
      ['ab', 'a', 'b'],
      ['a', 'a', ''],
    ]);
  });

  it('replaces with Go template expansion', () => {
    expect(call('regex.replace', 'abc-abd', 'a(b)(?P<x>.)', '[$1${x}]')).toBe('[bc]-[bd]');
    expect(call('regex.replace', 'abc', 'x*', '-')).toBe('-a-b-c-');
    expect(call('regex.replace', 'ab', '(a)', '$1x$$')).toBe('$b');
  });

  it('matches templates and glob intersections', () => {
    expect(call('regex.template_match', 'urn:foo:{.*}', 'urn:foo:bar:baz', '{', '}')).toBe(true);
    expect(call('regex.template_match', 'urn:foo.bar.com:{.*}', 'urn:foo.com:bar:baz', '{', '}')).toBe(false);
    expect(call('regex.globs_match', 'a.a.', '.b.b')).toBe(true);
    expect(call('regex.globs_match', '[a-c]+', '[d-f]+')).toBe(false);
    expect(call('regex.globs_match', 'a+b*', 'b+')).toBe(false);
  });

  it('matches globs with delimiters', () => {
    expect(call('glob.match', '*.github.com', [], 'api.github.com')).toBe(true);
    expect(call('glob.match', '*.github.com', [], 'api.cdn.github.com')).toBe(false);
    expect(call('glob.match', '**.github.com', ['.'], 'api.cdn.github.com')).toBe(true);
    expect(call('glob.match', '*:github:com', [':'], 'api:github:com')).toBe(true);
    expect(call('glob.match', '*', null, 'a.b/c')).toBe(true);
    expect(call('glob.match', '{cat,bat}[!c]?', null, 'batxy')).toBe(true);
    expect(call('glob.match', '[a-c]at', [], 'dat')).toBe(false);
    expect(call('glob.match', 'a\\*b', [], 'a*b')).toBe(true);
    expect(call('glob.quote_meta', '*.git{hub}')).toBe('\\*.git\\{hub\\}');
  });
});
