/** Rules for when an API key stops working. Times are epoch milliseconds unless named `...Seconds`. */

/** Default grace period of a rotated key: the old key keeps working this long after its successor is issued. */
export const DEFAULT_ROTATION_GRACE_HOURS = 24;
/** Longest grace period a rotation may ask for (one year). */
export const MAX_ROTATION_GRACE_HOURS = 24 * 365;
/** The last second a timestamp may name: 9999-12-31T23:59:59Z. */
export const MAX_EXPIRES_AT_SECONDS = 253_402_300_799;

/**
 * `expires_at` as a request sends it (Unix seconds; absent, null or 0: never) -> a Date or null, or the reason
 * it is refused.
 */
export function parseExpiresAt(seconds: number | null | undefined, nowMs: number): { expiresAt: Date | null } | { problem: string } {
  if (seconds === undefined || seconds === null || seconds === 0) return { expiresAt: null };
  if (seconds * 1000 <= nowMs) return { problem: 'expires_at cannot be in the past' };
  return { expiresAt: new Date(Math.round(seconds * 1000)) };
}

/** When a rotated key stops: after the grace period, or at its own expiry if that comes first. */
export function rotatedKeyExpiry(currentExpiry: Date | null, nowMs: number, graceHours: number): Date {
  const graceEnd = nowMs + graceHours * 3_600_000;
  return new Date(currentExpiry ? Math.min(currentExpiry.getTime(), graceEnd) : graceEnd);
}

/** A timestamp as the API shows it: Unix seconds, 0 for "never". */
export function epochSecondsOrZero(date: Date | null): number {
  return date ? date.getTime() / 1000 : 0;
}
