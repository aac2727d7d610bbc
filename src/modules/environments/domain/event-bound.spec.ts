import { EventBoundError, parseEventBound } from './event-bound';

describe('parseEventBound', () => {
  const now = 1_800_000_000;
  it('reads snapshot numbers, counts from the latest, NOW, times ago and timestamps', () => {
    expect(parseEventBound('5', now)).toEqual({ kind: 'snapshot', number: 5 });
    expect(parseEventBound('-1', now)).toEqual({ kind: 'back', steps: 0 });
    expect(parseEventBound('-3', now)).toEqual({ kind: 'back', steps: 2 });
    expect(parseEventBound('now', now)).toEqual({ kind: 'back', steps: 0 });
    expect(parseEventBound('1hour', now)).toEqual({ kind: 'time', seconds: now - 3600 });
    expect(parseEventBound('1h', now)).toEqual({ kind: 'time', seconds: now - 3600 });
    expect(parseEventBound('2days', now)).toEqual({ kind: 'time', seconds: now - 2 * 86400 });
    expect(parseEventBound('30mins', now)).toEqual({ kind: 'time', seconds: now - 1800 });
    expect(parseEventBound('1719638400', now)).toEqual({ kind: 'time', seconds: 1719638400 });
    expect(parseEventBound('999999999', now)).toEqual({ kind: 'snapshot', number: 999999999 });
  });

  it('refuses anything else with a reason', () => {
    for (const bad of ['0', '', 'yesterday', '1fortnight', '5..6', '1.5', '9999999999999hours']) {
      expect(() => parseEventBound(bad, now)).toThrow(EventBoundError);
    }
  });
});
