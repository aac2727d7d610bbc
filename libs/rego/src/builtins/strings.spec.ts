import { call } from './spec-helpers';
import { BuiltinTypeError } from './errors';
import { makeSet } from '../value';

describe('string builtins', () => {
  it('counts and indexes by rune', () => {
    expect(call('indexof', 'aåäö', 'ö')).toBe(3);
    expect(call('indexof', 'abc', 'x')).toBe(-1);
    expect(call('indexof_n', '😇😀😇😀', '😀')).toEqual([1, 3]);
    expect(call('indexof_n', 'aaa', 'aa')).toEqual([0, 1]);
    expect(call('substring', 'aåäö', 1, 2)).toBe('åä');
    expect(call('substring', 'abc', 1, -1)).toBe('bc');
    expect(call('substring', 'abc', 5, 1)).toBe('');
    expect(() => call('substring', 'abc', -1, 1)).toThrow('negative offset');
    expect(call('strings.reverse', '1😀𝛾')).toBe('𝛾😀1');
  });

  it('splits, joins and replaces like Go', () => {
    expect(call('split', 'a.b', '.')).toEqual(['a', 'b']);
    expect(call('split', 'ab', '')).toEqual(['a', 'b']);
    expect(call('concat', '-', makeSet(['b', 'a']))).toBe('a-b');
    expect(call('replace', 'foo...bar', '..', ',,')).toBe('foo,,.bar');
    expect(call('replace', 'ab', '', '-')).toBe('-a-b-');
    expect(call('strings.replace_n', { a: '1', ab: '2' }, 'abab')).toBe('1b1b');
    expect(call('strings.count', 'dummy', '')).toBe(6);
    expect(call('strings.split_n', 'a.b.c.d', '.', -2)).toEqual(['c', 'd']);
    expect(call('strings.split_n', 'a.b.c.d', '.', 2)).toEqual(['a', 'b']);
  });

  it('trims with cutsets and Go whitespace', () => {
    expect(call('trim', '...foo.bar...', '.fr')).toBe('oo.ba');
    expect(call('trim_left', 'xxa', 'x')).toBe('a');
    expect(call('trim_right', 'axx', 'x')).toBe('a');
    expect(call('trim_prefix', 'prefix-x', 'prefix-')).toBe('x');
    expect(call('trim_suffix', 'x.txt', '.txt')).toBe('x');
    expect(call('trim_space', '\t x \u00a0')).toBe('x');
  });

  it('maps case per rune', () => {
    expect(call('upper', 'straße')).toBe('STRAßE');
    expect(call('lower', 'ÀB')).toBe('àb');
  });

  it('formats integers in bases 2, 8, 10 and 16', () => {
    expect(call('format_int', 15.9, 16)).toBe('f');
    expect(call('format_int', -8, 2)).toBe('-1000');
    expect(() => call('format_int', 1, 3)).toThrow(BuiltinTypeError);
  });

  it('matches prefixes and suffixes over collections', () => {
    expect(call('strings.any_prefix_match', ['abc', 'x'], 'ab')).toBe(true);
    expect(call('strings.any_suffix_match', 'abc', makeSet(['zz', 'bc']))).toBe(true);
    expect(() => call('strings.any_prefix_match', [1], 'a')).toThrow(
      'operand 1 must be array of strings but got array containing number',
    );
    expect(() => call('strings.any_prefix_match', 1, 'a')).toThrow('operand 1 must be one of {string, set, array} but got number');
  });

  it('reports OPA operand errors', () => {
    expect(() => call('strings.reverse', 1)).toThrow(new BuiltinTypeError('operand 1 must be string but got number'));
    expect(() => call('strings.replace_n', { a: 1 }, 'x')).toThrow('operand 1 non-string value found in pattern object');
    expect(() => call('strings.split_n', 'a', '.', 1.5)).toThrow('operand 3 must be integer number but got floating-point number');
  });

  it('renders Go templates', () => {
    const t = '{{.name}}: {{range $i, $v := .items}}{{if $i}}, {{end}}{{$v}}{{end}}{{if gt .n 1}} many{{else}} few{{end}}';
    expect(call('strings.render_template', t, { name: 'x', items: ['a', 'b'], n: 2 })).toBe('x: a, b many');
    expect(call('strings.render_template', '{{- " a " -}} {{ .m.k }}', { m: { k: 1 } })).toBe(' a 1');
    expect(() => call('strings.render_template', '{{.missing}}', {})).toThrow('map has no entry for key "missing"');
  });
});
