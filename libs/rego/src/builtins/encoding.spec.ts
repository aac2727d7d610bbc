import { call, callRaw } from './spec-helpers';
import { makeSet } from '../value';

describe('encodings', () => {
  it('base64 and base64url, strictly as Go decodes', () => {
    expect(call('base64.encode', 'héllo')).toBe('aMOpbGxv');
    expect(call('base64.decode', 'aMOpbGxv')).toBe('héllo');
    expect(() => call('base64.decode', 'aMOpbGx')).toThrow('illegal base64 data');
    expect(call('base64.is_valid', 'aGk=')).toBe(true);
    expect(call('base64.is_valid', 'aGk')).toBe(false);
    expect(call('base64url.encode', '??>>')).toBe('Pz8-Pg==');
    expect(call('base64url.encode_no_pad', '??>>')).toBe('Pz8-Pg');
    expect(call('base64url.decode', 'Pz8-Pg')).toBe('??>>');
  });

  it('decodes invalid UTF-8 to one U+FFFD per byte, as Go counts runes', () => {
    expect(call('count', callRaw('base64.decode', ['/w==']) as string)).toBe(1);
    expect(call('base64.decode', '4oI=')).toBe('\ufffd\ufffd');
  });

  it('hex', () => {
    expect(call('hex.encode', 'hi')).toBe('6869');
    expect(call('hex.decode', '6869')).toBe('hi');
    expect(() => call('hex.decode', '6g')).toThrow("encoding/hex: invalid byte: U+0067 'g'");
    expect(() => call('hex.decode', '686')).toThrow('odd length');
  });

  it('url query escaping', () => {
    expect(call('urlquery.encode', 'a b&c=d/é')).toBe('a+b%26c%3Dd%2F%C3%A9');
    expect(call('urlquery.decode', 'a+b%26c')).toBe('a b&c');
    expect(() => call('urlquery.decode', '%zz')).toThrow('invalid URL escape "%zz"');
    expect(call('urlquery.encode_object', { b: makeSet(['y', 'x']), a: '1 2' })).toBe('a=1+2&b=x&b=y');
    expect(call('urlquery.decode_object', 'a=1&b=2&a=3')).toEqual({ a: ['1', '3'], b: ['2'] });
  });

  it('json with Go output (sorted keys, HTML escapes, exact integers)', () => {
    expect(call('json.marshal', { b: [1, makeSet([2, 1])], a: '<x>' })).toBe('{"a":"\\u003cx\\u003e","b":[1,[1,2]]}');
    expect(callRaw('json.unmarshal', ['{"a": 12345678901234567890}'])).toEqual({ a: 12345678901234567890n });
    expect(call('json.is_valid', '{')).toBe(false);
    expect(call('json.is_valid', 1)).toBe(false);
    expect(call('json.marshal_with_options', { b: 1, a: [] }, { prefix: '> ' })).toBe('> {\n> \t"a": [],\n> \t"b": 1\n> }');
    expect(call('json.marshal_with_options', [1], { pretty: false, indent: 'x' })).toBe('[1]');
    expect(() => call('json.marshal_with_options', [], { bogus: true })).toThrow('object contained unknown key "bogus"');
  });

  it('yaml', () => {
    expect(call('yaml.marshal', { b: [1, { c: 'd' }], a: 'x' })).toBe('a: x\nb:\n- 1\n- c: d\n');
    expect(call('yaml.unmarshal', 'a: 1\nb:\n- x\n- true\n')).toEqual({ a: 1, b: ['x', true] });
    expect(call('yaml.is_valid', 'a: {')).toBe(false);
  });
});
