import { RESOURCE_SPELLINGS, resourceKind } from './resource-kinds';
import { applyTagUpdate, MAX_TAGS, tagMapProblems, TooManyTagsError } from './tag-update';

describe('applyTagUpdate', () => {
  it('sets, then removes (a key both set and removed is removed); removing an absent key is fine; keys sorted', () => {
    expect(applyTagUpdate({ b: '1', a: '2' }, { c: '3', b: 'x' }, ['a', 'c', 'nope'])).toEqual({ b: 'x' });
    expect(Object.keys(applyTagUpdate({}, { z: '1', a: '2', m: '3' }, []))).toEqual(['a', 'm', 'z']);
  });

  it('holds at most 50 tags after the update, counting removals', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_TAGS }, (_, i) => [`k${i}`, 'v']));
    expect(Object.keys(applyTagUpdate({}, many, []))).toHaveLength(50);
    expect(() => applyTagUpdate(many, { extra: 'v' }, [])).toThrow(TooManyTagsError);
    expect(Object.keys(applyTagUpdate(many, { extra: 'v' }, ['k0']))).toHaveLength(50);
  });
});

describe('tagMapProblems', () => {
  it('keys each problem by its tag key', () => {
    expect(tagMapProblems({ ok: 'v', '-bad': 'v', n: 1, long: 'x'.repeat(257), max: 'x'.repeat(256), 'a.b~c_d-e': '' })).toEqual({
      '-bad': 'tag key must match ^[a-zA-Z0-9][a-zA-Z0-9\\-_.~]*$',
      n: 'must be a string',
      long: 'must be at most 256 characters',
    });
    expect(tagMapProblems([])).toEqual({ '': 'must be an object mapping a tag key to a string value' });
    expect(tagMapProblems({})).toBeNull();
  });
});

describe('resource kinds', () => {
  it('accepts every spelling the CLI sends, singular or plural, and env', () => {
    expect(Object.keys(RESOURCE_SPELLINGS).sort()).toEqual(['control', 'controls', 'env', 'environment', 'environments', 'flow', 'flows', 'repo', 'repos']);
    expect(resourceKind('env')).toBe('environment');
    expect(resourceKind('Flow')).toBeNull();
    expect(resourceKind('constructor')).toBeNull();
  });
});
