import { BUILTINS, INFIX } from './registry';

describe('builtin registry', () => {
  it('declares OPA builtins with signatures', () => {
    const count = BUILTINS.get('count')!;
    expect(count.args).toHaveLength(1);
    expect(count.result).toEqual({ type: 'number' });
    expect(BUILTINS.get('walk')!.relation).toBe(true);
    expect(BUILTINS.get('http.send')!.nondeterministic).toBe(true);
  });

  it('maps infix operators to builtins', () => {
    expect(INFIX.get('==')).toBe('equal');
    expect(INFIX.get('+')).toBe('plus');
    expect(INFIX.get('&')).toBe('and');
    expect(INFIX.get('in')).toBe('internal.member_2');
  });

  it('implements comparisons', () => {
    const ctx = { nowNs: 0n, strict: false, print: () => {}, rand: {}, cache: new Map() };
    expect(BUILTINS.get('lt')!.impl!([1, 'a'], ctx)).toBe(true);
    expect(BUILTINS.get('equal')!.impl!([1, 1.0], ctx)).toBe(true);
  });
});
