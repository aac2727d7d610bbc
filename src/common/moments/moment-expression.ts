/**
 * The one expression grammar for addressing a point in an append-only series: trail moments
 * (`{moment_expression}`) and environment snapshots (`{snapshot_expression}`, `diff?from=&to=`). Parsed into a
 * plain value; resolving it against the database is each reader's job (its own table, the same meaning).
 * "Moment" below reads "snapshot" for environments.
 *
 *   N | #N            moment number N (1-based)
 *   -N                N-th from the latest (-1 is the latest)
 *   ~N                N behind the latest (~0 is the latest)
 *   latest
 *   @{now} | @{<RFC 3339>} | @{YYYY-MM-DDTHH:MM:SS[.fraction]} (UTC) | @{<Unix seconds[.fraction]>}
 *   @{N.<unit>.ago}   unit: second(s), minute(s), hour(s), day(s), week(s), month(s)
 *
 * Ranges, checked here so that no expression reaches the database out of its types' range: an instant lies
 * between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z; `N.<unit>.ago` reaches back at most 1,000
 * years; a number or count beyond the largest moment number (2147483647) names no moment.
 */
export type MomentSelector =
  | { kind: 'number'; number: number }
  /** 0 is the latest, 1 the one before ... */
  | { kind: 'back'; steps: number }
  /** The last moment created at or before an instant given as Unix microseconds (exact, as a bigint). */
  | { kind: 'at'; epochMicros: bigint }
  | { kind: 'now' }
  | { kind: 'ago'; amount: number; unit: AgoUnit };

export type AgoUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month';

export class MomentExpressionError extends Error {}

/** Moment numbers are int4 in the database; larger ones simply do not exist. */
export const MAX_MOMENT = 2_147_483_647;

/** The last second of 9999-12-31 UTC: the latest instant an expression may name. */
export const MAX_INSTANT_SECONDS = 253_402_300_799;

/** How many of each unit make 1,000 years (a year of 365.25 days, a month of a twelfth of that). */
const MAX_AGO: Record<AgoUnit, number> = {
  second: 31_557_600_000,
  minute: 525_960_000,
  hour: 8_766_000,
  day: 365_250,
  week: 52_178,
  month: 12_000,
};

const NUMBER = /^#?(\d{1,18})$/;
const FROM_LATEST = /^-(\d{1,18})$/;
const BEHIND_LATEST = /^~(\d{1,18})$/;
const AGO = /^(\d{1,9})\.(second|minute|hour|day|week|month)s?\.ago$/;
const UNIX = /^(\d{1,12})(?:\.(\d{1,9}))?$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})?$/;

export function parseMomentExpression(raw: string): MomentSelector {
  const text = raw.trim();
  if (!text) throw new MomentExpressionError('must not be empty');
  if (text === 'latest') return { kind: 'back', steps: 0 };

  let m = NUMBER.exec(text);
  if (m) {
    const n = Number(m[1]);
    if (n < 1) throw new MomentExpressionError('moment numbers start at 1');
    return { kind: 'number', number: n };
  }
  m = FROM_LATEST.exec(text);
  if (m) {
    const n = Number(m[1]);
    if (n < 1) throw new MomentExpressionError("'-N' counts from the latest moment, which is -1");
    // Any count past the largest moment number names nothing; capped so that it stays a database integer.
    return { kind: 'back', steps: Math.min(n - 1, MAX_MOMENT) };
  }
  m = BEHIND_LATEST.exec(text);
  if (m) return { kind: 'back', steps: Math.min(Number(m[1]), MAX_MOMENT) };

  if (text.startsWith('@{') && text.endsWith('}')) return parseInstant(text.slice(2, -1).trim());
  throw new MomentExpressionError(
    "must be N, #N, -N, ~N, latest, or @{...} with now, a date-time, Unix seconds or 'N.<unit>.ago'",
  );
}

function parseInstant(inner: string): MomentSelector {
  if (inner === 'now') return { kind: 'now' };
  let m = AGO.exec(inner);
  if (m) {
    const unit = m[2] as AgoUnit;
    const amount = Number(m[1]);
    if (amount > MAX_AGO[unit]) throw new MomentExpressionError(`'N.${unit}s.ago' reaches back at most 1000 years (N up to ${MAX_AGO[unit]})`);
    return { kind: 'ago', amount, unit };
  }
  m = UNIX.exec(inner);
  if (m) return { kind: 'at', epochMicros: inRange(BigInt(m[1]) * 1_000_000n + fractionMicros(m[2])) };
  m = DATE_TIME.exec(inner);
  if (m) return { kind: 'at', epochMicros: inRange(dateTimeMicros(m)) };
  throw new MomentExpressionError(
    "@{...} must hold now, an RFC 3339 time, YYYY-MM-DDTHH:MM:SS[.fraction] (UTC), Unix seconds, or 'N.<unit>.ago'",
  );
}

function inRange(epochMicros: bigint): bigint {
  if (epochMicros < 0n || epochMicros >= (BigInt(MAX_INSTANT_SECONDS) + 1n) * 1_000_000n) {
    throw new MomentExpressionError('@{...} must name an instant from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z');
  }
  return epochMicros;
}

/** Digits beyond microseconds are dropped: truncation keeps "at or before the instant" exact. */
function fractionMicros(fraction: string | undefined): bigint {
  if (!fraction) return 0n;
  return BigInt((fraction + '000000').slice(0, 6));
}

function dateTimeMicros(m: RegExpExecArray): bigint {
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  // Before Date.UTC, which reads years 0 to 99 as 1900 to 1999.
  if (year < 1970) throw new MomentExpressionError('@{...} must name an instant from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z');
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12) throw new MomentExpressionError('month must be 01 to 12');
  if (day < 1 || day > daysInMonth) throw new MomentExpressionError(`day must be 01 to ${daysInMonth}`);
  if (hour > 23 || minute > 59 || second > 59) throw new MomentExpressionError('time of day is out of range');
  let offsetMinutes = 0;
  const zone = m[8];
  if (zone && zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const [oh, om] = zone.slice(1).split(':').map(Number);
    if (oh > 23 || om > 59) throw new MomentExpressionError('time zone offset is out of range');
    offsetMinutes = sign * (oh * 60 + om);
  }
  const utcMs = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000;
  return BigInt(utcMs) * 1000n + fractionMicros(m[7]);
}
