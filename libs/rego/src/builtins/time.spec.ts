import { call, callRaw, testContext } from './spec-helpers';

/** Timestamps compared exactly as bigints. */
function ns(name: string, ...args: Parameters<typeof call>[1][]): bigint {
  return BigInt(callRaw(name, args) as number | bigint);
}

describe('time builtins', () => {
  const T = 1700000000000000000n; // 2023-11-14T22:13:20Z, a Tuesday

  it('reads the evaluation clock', () => {
    expect(callRaw('time.now_ns', [], testContext({ nowNs: T }))).toBe(T);
  });

  it('parses RFC 3339 and Go layouts', () => {
    expect(ns('time.parse_rfc3339_ns', '2017-06-02T19:00:00.123456789-07:00')).toBe(1496455200123456789n);
    expect(ns('time.parse_ns', '2006-01-02', '2022-03-04')).toBe(1646352000000000000n);
    expect(ns('time.parse_ns', 'Mon Jan _2 15:04:05 MST 2006', 'Tue Feb  3 04:05:06 PST 2015')).toBe(1422936306000000000n);
    expect(ns('time.parse_ns', 'RFC822Z', '02 Jan 06 15:04 -0700')).toBe(1136239440000000000n);
    expect(() => call('time.parse_ns', '2006-01-02', '2022-02-30')).toThrow('day out of range');
    expect(() => call('time.parse_rfc3339_ns', 'yesterday')).toThrow('cannot parse');
  });

  it('parses durations', () => {
    expect(call('time.parse_duration_ns', '1h30m1.5s')).toBe(5401500000000);
    expect(call('time.parse_duration_ns', '-300ms')).toBe(-300000000);
    expect(() => call('time.parse_duration_ns', '1d')).toThrow('time: unknown unit "d" in duration "1d"');
  });

  it('formats and splits times in zones', () => {
    expect(call('time.format', T)).toBe('2023-11-14T22:13:20Z');
    expect(call('time.format', [T, 'America/New_York', 'Mon, 02 Jan 2006 15:04:05 MST'])).toBe('Tue, 14 Nov 2023 17:13:20 EST');
    expect(call('time.format', [T + 5000000n, 'UTC', '3:04PM .000 002'])).toBe('10:13PM .005 318');
    expect(call('time.date', [T, 'Asia/Tokyo'])).toEqual([2023, 11, 15]);
    expect(call('time.clock', T)).toEqual([22, 13, 20]);
    expect(call('time.weekday', T)).toBe('Tuesday');
    expect(() => call('time.date', [T, 'Nowhere/City'])).toThrow('unknown time zone Nowhere/City');
  });

  it('adds dates and diffs like Go', () => {
    expect(ns('time.add_date', T, 0, 1, 31)).toBe(1705270400000000000n);
    expect(ns('time.add_date', 1706659200000000000n, 0, 1, 0)).toBe(1709337600000000000n); // Jan 31 + 1 month = Mar 2 (2024)
    expect(call('time.diff', T, 1600000000000000000n)).toEqual([3, 2, 1, 9, 46, 40]);
  });
});
