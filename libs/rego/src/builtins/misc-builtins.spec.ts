import { call, callRaw, testContext } from './spec-helpers';
import { BuiltinError, BuiltinHaltError } from './errors';
import { makeSet } from '../value';

describe('semver, units, uuid', () => {
  it('compares semantic versions', () => {
    expect(call('semver.compare', '1.0.0-alpha', '1.0.0-alpha.1')).toBe(-1);
    expect(call('semver.compare', '1.0.0+b1', '1.0.0+b2')).toBe(0);
    expect(call('semver.compare', '2.0.0', '10.0.0')).toBe(-1);
    expect(call('semver.is_valid', 'v1.0.0')).toBe(false);
    expect(call('semver.is_valid', 1)).toBe(false);
    expect(() => call('semver.compare', '1', '1.0.0')).toThrow('operand 1: string 1 is not a valid SemVer');
  });

  it('parses units', () => {
    expect(call('units.parse', '1.1K')).toBe(1100);
    expect(call('units.parse', '1.1Ki')).toBe(1126.4);
    expect(call('units.parse', '100m')).toBe(0.1);
    expect(call('units.parse', '"10KI"')).toBe(10240);
    expect(callRaw('units.parse', ['10Ei'])).toBe(11529215046068469760n);
    expect(call('units.parse_bytes', '4.1Mi')).toBe(4299161);
    expect(call('units.parse_bytes', '1KiB')).toBe(1024);
    expect(() => call('units.parse', 'G')).toThrow('no amount provided');
    expect(() => call('units.parse_bytes', '1 kb')).toThrow('spaces not allowed in resource strings');
    expect(() => call('units.parse', '.5.2')).toThrow('could not parse amount to a number');
  });

  it('generates stable UUIDs per evaluation and parses them', () => {
    const ctx = testContext();
    const a = callRaw('uuid.rfc4122', ['x'], ctx) as string;
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(callRaw('uuid.rfc4122', ['x'], ctx)).toBe(a);
    expect(callRaw('uuid.rfc4122', ['y'], ctx)).not.toBe(a);
    expect(call('uuid.parse', '{00000000-0000-4000-8000-000000000000}')).toEqual({ variant: 'RFC4122', version: 4 });
    expect(call('uuid.parse', 'urn:uuid:000003e8-48b9-21ee-b200-325096b39f47')).toEqual({
      clocksequence: 12800,
      domain: 'Person',
      id: 1000,
      macvariables: 'local:unicast',
      nodeid: '32-50-96-b3-9f-47',
      time: 1693566990121469600n,
      variant: 'RFC4122',
      version: 2,
    });
    expect(() => call('uuid.parse', 'nope')).toThrow(BuiltinError);
  });
});

describe('net (CIDR)', () => {
  it('contains, intersects and validates', () => {
    expect(call('net.cidr_contains', '10.0.0.0/8', '10.1.2.3')).toBe(true);
    expect(call('net.cidr_contains', '10.0.0.0/8', '11.0.0.0/16')).toBe(false);
    expect(call('net.cidr_contains', '2001:db8::/32', '2001:db8::ff')).toBe(true);
    expect(call('net.cidr_intersects', '10.0.0.0/8', '10.1.0.0/16')).toBe(true);
    expect(call('net.cidr_is_valid', '10.0.0.0/33')).toBe(false);
    expect(() => call('net.cidr_contains', 'nope', '1.2.3.4')).toThrow('invalid CIDR address: nope');
  });

  it('expands and merges', () => {
    expect(call('net.cidr_expand', '192.168.0.0/30')).toEqual(['192.168.0.0', '192.168.0.1', '192.168.0.2', '192.168.0.3']);
    expect(call('net.cidr_merge', ['192.168.1.0/25', '192.168.1.128/25', '10.0.0.1', '2001:db8::/33', '2001:db8:8000::/33'])).toEqual([
      '10.0.0.1/32',
      '192.168.1.0/24',
      '2001:db8::/32',
    ]);
    expect(call('net.cidr_contains_matches', ['1.1.1.0/24', '1.1.2.0/24'], { x: '1.1.1.128', y: ['1.1.2.7', 'meta'] })).toEqual([
      [0, 'x'],
      [1, 'y'],
    ]);
  });
});

describe('crypto hashes and HMAC', () => {
  it('hashes UTF-8 strings to hex', () => {
    expect(call('crypto.md5', 'x')).toBe('9dd4e461268c8034f5c8564e155c67a6');
    expect(call('crypto.sha1', 'x')).toBe('11f6ad8ec52a2984abaafd7c3b516503785c2072');
    expect(call('crypto.sha256', 'x')).toBe('2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881');
    expect(call('crypto.hmac.sha256', 'msg', 'key')).toBe('2d93cbc1be167bcb1637a4a23cbff01a7878f0c50ee833954ea5221bb1b8c628');
    expect(call('crypto.hmac.equal', 'ab', 'ab')).toBe(true);
    expect(call('crypto.hmac.equal', 'ab', 'abc')).toBe(false);
  });
});

describe('print, trace, refusals', () => {
  it('prints through the context, showing undefined operands', () => {
    const ctx = testContext();
    callRaw('internal.print', [[makeSet(['a']), makeSet([]), makeSet([1, 2])]], ctx);
    expect(ctx.printed).toEqual(['a <undefined> 1', 'a <undefined> 2']);
    callRaw('trace', ['hello'], ctx);
    expect(ctx.printed).toHaveLength(2); // trace notes are not print output
    expect(ctx.cache.get('trace')).toEqual(['hello']);
    expect(call('internal.template_string', [makeSet(['x = ']), makeSet([{ a: 1 }])])).toBe('x = {"a": 1}');
  });

  it('returns metadata supplied by the evaluator', () => {
    const ctx = testContext({ metadata: { chain: [{ path: ['data', 'p'] }], rule: { title: 't' } } });
    expect(callRaw('rego.metadata.rule', [], ctx)).toEqual({ title: 't' });
    expect(callRaw('rego.metadata.chain', [], ctx)).toEqual([{ path: ['data', 'p'] }]);
  });

  it('refuses network and environment access with halting errors', () => {
    expect(() => call('http.send', { method: 'get', url: 'http://x' })).toThrow(BuiltinHaltError);
    expect(() => call('opa.runtime')).toThrow('not supported: policies cannot read the runtime environment');
    expect(() => call('net.lookup_ip_addr', 'example.com')).toThrow(BuiltinHaltError);
  });

  it('parses URIs like Go', () => {
    expect(call('uri.parse', 'https://u:p@example.com:8080/a%20b?x=1#frag')).toEqual({
      scheme: 'https',
      hostname: 'example.com',
      port: '8080',
      path: '/a b',
      raw_path: '/a b',
      raw_query: 'x=1',
      fragment: 'frag',
    });
    expect(call('uri.is_valid', '')).toBe(false);
    expect(call('uri.is_valid', 'http://%zz')).toBe(false);
  });
});
