import { epochSecondsOrZero, parseExpiresAt, rotatedKeyExpiry } from './key-lifetime';

describe('key lifetime', () => {
  const now = Date.UTC(2030, 0, 1);

  it('reads expires_at: absent, null and 0 mean never; a past or present time is refused', () => {
    expect(parseExpiresAt(undefined, now)).toEqual({ expiresAt: null });
    expect(parseExpiresAt(null, now)).toEqual({ expiresAt: null });
    expect(parseExpiresAt(0, now)).toEqual({ expiresAt: null });
    expect(parseExpiresAt(now / 1000 + 60, now)).toEqual({ expiresAt: new Date(now + 60_000) });
    expect(parseExpiresAt(now / 1000, now)).toEqual({ problem: 'expires_at cannot be in the past' });
    expect(parseExpiresAt(1, now)).toEqual({ problem: 'expires_at cannot be in the past' });
  });

  it('a rotated key stops at the end of the grace period, or earlier at its own expiry', () => {
    expect(rotatedKeyExpiry(null, now, 24)).toEqual(new Date(now + 24 * 3_600_000));
    expect(rotatedKeyExpiry(new Date(now + 3_600_000), now, 24)).toEqual(new Date(now + 3_600_000));
    expect(rotatedKeyExpiry(null, now, 0)).toEqual(new Date(now));
  });

  it('shows never as 0', () => {
    expect(epochSecondsOrZero(null)).toBe(0);
    expect(epochSecondsOrZero(new Date(1500))).toBe(1.5);
  });
});
