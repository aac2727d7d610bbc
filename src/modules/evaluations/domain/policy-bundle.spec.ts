import { canonicalJson, documentDigest } from './canonical-json';
import { kindOfEngineCode, PolicyBundleError } from './evaluation-error';
import { bundleDigests, loadBundle, policyPathProblem } from './policy-bundle';
import { canonicalInput, inputDocument, nanosecondsOf } from '../running/evaluation-input';

describe('canonical JSON', () => {
  it('sorts keys at every depth, drops undefined members and writes big integers exactly', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: undefined } })).toBe('{"a":{"d":[1,{"y":null,"z":true}]},"b":1}');
    expect(canonicalJson({ n: 1795564433672266000n })).toBe('{"n":1795564433672266000}');
    expect(documentDigest({ a: 1, b: 2 })).toBe(documentDigest({ b: 2, a: 1 }));
    expect(documentDigest({ a: 1 })).not.toBe(documentDigest({ a: 2 }));
  });
});

describe('policy bundles', () => {
  const rego = 'package policy\n\nallow := true\n';

  it('has one identity per set of files, whatever their order', () => {
    const a = bundleDigests({ 'a.rego': rego, 'b/data.json': '{}' });
    const b = bundleDigests({ 'b/data.json': '{}', 'a.rego': rego });
    expect(a).toEqual(b);
    expect(a.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(bundleDigests({ 'a.rego': rego + ' ' }).digest).not.toBe(a.digest);
  });

  it('mounts data documents at their folder path and merges them', () => {
    const bundle = loadBundle({
      'p.rego': rego,
      'data.json': '{"top": 1, "x": {"a": 1}}',
      'x/data.yaml': 'b: 2',
      'x/y/data.yml': '[1, 2]',
    });
    expect(bundle.data).toEqual({ top: 1, x: { a: 1, b: 2, y: [1, 2] } });
    expect(Object.keys(bundle.modules)).toEqual(['p.rego']);
  });

  it('keeps a __proto__ key of the data as data, never touching the prototype of every object', () => {
    const bundles: Array<Record<string, string>> = [
      { 'p.rego': rego, '__proto__/data.json': '{"allow": true}' },
      { 'p.rego': rego, 'a/__proto__/data.yaml': 'allow: true' },
      { 'p.rego': rego, 'data.json': '{"__proto__": {"allow": true}}' },
      { 'p.rego': rego, 'data.json': '{"x": 1}', 'x2/data.json': '{"__proto__": {"polluted": 1}}' },
    ];
    for (const files of bundles) {
      const bundle = loadBundle(files);
      expect(({} as Record<string, unknown>).allow).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf(bundle.data)).toBe(Object.prototype);
      expect(JSON.stringify(bundle.data)).toMatch(/"__proto__":\{"(allow|polluted)"/);
    }
  });

  it('refuses documents that do not parse or set one value twice, and bundles without a policy', () => {
    const kind = (files: Record<string, string>) => {
      try {
        loadBundle(files);
        return 'loaded';
      } catch (error) {
        return (error as PolicyBundleError).kind;
      }
    };
    expect(kind({ 'p.rego': rego, 'data.json': '{' })).toBe('policy_parse_error');
    expect(kind({ 'p.rego': rego, 'data.yaml': 'a: [' })).toBe('policy_parse_error');
    expect(kind({ 'p.rego': rego, 'data.json': '{"x": 1}', 'x/data.json': '{"y": 2}' })).toBe('policy_compile_error');
    expect(kind({ 'p.rego': rego, 'data.json': '[1]' })).toBe('policy_compile_error');
    expect(kind({ 'README.md': 'no policy' })).toBe('policy_compile_error');
    expect(kind({ 'p.rego': rego, '.manifest': '{"rego_version": 2}' })).toBe('policy_compile_error');
    expect(kind({ 'p.rego': rego, '.manifest': '{"rego_version": 0}' })).toBe('loaded');
    expect(kind({ 'p.rego': rego, '.manifest': '{"rego_version": 1}' })).toBe('loaded');
    expect(kind({ 'policy.wasm': 'not base64!' })).toBe('policy_parse_error');
    expect(kind({ 'policy.wasm': Buffer.from('not wasm').toString('base64') })).toBe('policy_parse_error');
    expect(loadBundle({ 'policy.wasm': Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]).toString('base64') }).wasm).toHaveLength(8);
  });

  it('checks file paths', () => {
    expect(policyPathProblem('policy/main.rego')).toBeNull();
    for (const bad of ['', '/abs.rego', '../up.rego', 'a//b.rego', './a.rego', 'a\\b.rego', 'x\u0000']) expect(policyPathProblem(bad)).not.toBeNull();
  });
});

describe('evaluation input and errors', () => {
  it('sorts trails by flow then trail, adds input.trail for one trail', () => {
    const t = (flow_name: string, trail_name: string) => ({ flow_name, trail_name });
    expect(inputDocument([t('b', 'a'), t('a', 'z'), t('a', 'b')])).toEqual({ trails: [t('a', 'b'), t('a', 'z'), t('b', 'a')] });
    expect(inputDocument([t('a', 'b')])).toEqual({ trails: [t('a', 'b')], trail: t('a', 'b') });
  });

  it("composes the input's canonical text from its elements, equal to the document's canonical JSON", () => {
    const e = (flow_name: string, trail_name: string) => ({ trail_name, flow_name, z: { b: 1, a: [2, { d: 1, c: 0 }] } });
    for (const doc of [inputDocument([e('b', 'a'), e('a', 'z')]), inputDocument([e('a', 'b')])]) {
      expect(canonicalInput(doc)).toBe(canonicalJson(doc));
      expect(JSON.parse(canonicalInput(doc))).toEqual(JSON.parse(JSON.stringify(doc)));
    }
  });

  it('turns recorded_at (exact decimal seconds) into nanoseconds', () => {
    expect(nanosecondsOf('1795564433.672266')).toBe(1795564433672266000n);
    expect(nanosecondsOf('1795564433')).toBe(1795564433000000000n);
  });

  it("classifies the engine's codes; an unknown code is the service's fault", () => {
    expect(kindOfEngineCode('rego_parse_error')).toBe('policy_parse_error');
    expect(kindOfEngineCode('rego_unsafe_var_error')).toBe('policy_compile_error');
    expect(kindOfEngineCode('eval_conflict_error')).toBe('policy_runtime_error');
    expect(kindOfEngineCode('policy_timeout')).toBe('policy_timeout');
    expect(kindOfEngineCode('policy_resource_limit')).toBe('policy_resource_limit');
    expect(kindOfEngineCode('sandbox_error')).toBe('service_error');
  });
});
