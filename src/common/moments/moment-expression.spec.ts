import { MomentExpressionError, parseMomentExpression } from './moment-expression';

const at = (iso: string, extraMicros = 0n) => ({ kind: 'at', epochMicros: BigInt(Date.parse(iso)) * 1000n + extraMicros });

describe('parseMomentExpression', () => {
  it.each([
    ['1', { kind: 'number', number: 1 }],
    ['42', { kind: 'number', number: 42 }],
    ['#7', { kind: 'number', number: 7 }],
    ['007', { kind: 'number', number: 7 }],
    ['-1', { kind: 'back', steps: 0 }],
    ['-3', { kind: 'back', steps: 2 }],
    ['~0', { kind: 'back', steps: 0 }],
    ['~2', { kind: 'back', steps: 2 }],
    ['latest', { kind: 'back', steps: 0 }],
    ['@{now}', { kind: 'now' }],
    ['@{1.day.ago}', { kind: 'ago', amount: 1, unit: 'day' }],
    ['@{3.days.ago}', { kind: 'ago', amount: 3, unit: 'day' }],
    ['@{10.seconds.ago}', { kind: 'ago', amount: 10, unit: 'second' }],
    ['@{1.second.ago}', { kind: 'ago', amount: 1, unit: 'second' }],
    ['@{5.minutes.ago}', { kind: 'ago', amount: 5, unit: 'minute' }],
    ['@{2.hours.ago}', { kind: 'ago', amount: 2, unit: 'hour' }],
    ['@{1.week.ago}', { kind: 'ago', amount: 1, unit: 'week' }],
    ['@{6.months.ago}', { kind: 'ago', amount: 6, unit: 'month' }],
    ['@{1763770000}', { kind: 'at', epochMicros: 1763770000000000n }],
    ['@{1763770000.5}', { kind: 'at', epochMicros: 1763770000500000n }],
    ['@{1763770000.1234567}', { kind: 'at', epochMicros: 1763770000123456n }],
    ['@{2026-11-21T23:40:00Z}', at('2026-11-21T23:40:00Z')],
    ['@{2026-11-21T23:40:00.123456Z}', at('2026-11-21T23:40:00.123Z', 456n)],
    ['@{2026-11-22T01:40:00+02:00}', at('2026-11-21T23:40:00Z')],
    ['@{2026-11-21T20:10:00-03:30}', at('2026-11-21T23:40:00Z')],
    ['@{2026-11-21T23:40:00}', at('2026-11-21T23:40:00Z')],
    ['@{2026-11-21T23:40:00.25}', at('2026-11-21T23:40:00.250Z')],
    ['@{2024-02-29T00:00:00Z}', at('2024-02-29T00:00:00Z')],
  ])('%s', (expression, expected) => {
    expect(parseMomentExpression(expression)).toEqual(expected);
  });

  it.each([
    '',
    '0',
    '#0',
    '-0',
    '#-1',
    '1.5',
    'latest2',
    'LATEST',
    '~-1',
    '--1',
    'abc',
    '@{}',
    '@{later}',
    '@{now',
    '@now',
    '@{1.fortnight.ago}',
    '@{-1.day.ago}',
    '@{1.5.days.ago}',
    '@{2026-13-01T00:00:00Z}',
    '@{2026-02-30T00:00:00Z}',
    '@{2025-02-29T00:00:00Z}',
    '@{2026-11-21T24:00:00Z}',
    '@{2026-11-21T23:60:00Z}',
    '@{2026-11-21}',
    '@{2026-11-21T23:40:00+25:00}',
    '@{-1763770000}',
    '99999999999999999999',
  ])('rejects %p', (expression) => {
    expect(() => parseMomentExpression(expression)).toThrow(MomentExpressionError);
  });
});
