/**
 * One end of an event-log range (`start`, `end` of `GET /environments/{org}/{env}/events`): a snapshot number
 * (`5`), counted back from the latest (`-1` is the latest), `NOW` (the latest), a time ago (`1hour`, `1h`,
 * `2days`, `30mins`, `45s`, `1w`), or a Unix timestamp. An integer of ten digits or more (from 1,000,000,000:
 * September 2001) is a timestamp; smaller positive integers are snapshot numbers.
 */
export type EventBound = { kind: 'snapshot'; number: number } | { kind: 'back'; steps: number } | { kind: 'time'; seconds: number };

export class EventBoundError extends Error {}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };
const UNITS: Record<string, string> = {
  s: 's', sec: 's', secs: 's', second: 's', seconds: 's',
  m: 'm', min: 'm', mins: 'm', minute: 'm', minutes: 'm',
  h: 'h', hr: 'h', hrs: 'h', hour: 'h', hours: 'h',
  d: 'd', day: 'd', days: 'd',
  w: 'w', week: 'w', weeks: 'w',
};
const TIMESTAMP_FROM = 1_000_000_000;
/** As for moment expressions: at most about 1,000 years back. */
const MAX_AGO_SECONDS = 1000 * 366 * 86400;

export function parseEventBound(raw: string, nowSeconds: number): EventBound {
  const text = raw.trim();
  if (/^now$/i.test(text)) return { kind: 'back', steps: 0 };
  if (/^-?\d{1,18}$/.test(text)) {
    const n = Number(text);
    if (n === 0) throw new EventBoundError('snapshot numbers start at 1; -1 is the latest');
    if (n < 0) return { kind: 'back', steps: -n - 1 };
    return n >= TIMESTAMP_FROM ? { kind: 'time', seconds: n } : { kind: 'snapshot', number: n };
  }
  const ago = /^(\d{1,12})\s*([a-z]+)$/i.exec(text);
  const unit = ago && UNITS[ago[2].toLowerCase()];
  if (ago && unit) {
    const seconds = Number(ago[1]) * UNIT_SECONDS[unit];
    if (seconds > MAX_AGO_SECONDS) throw new EventBoundError('reaches back more than 1,000 years');
    return { kind: 'time', seconds: nowSeconds - seconds };
  }
  throw new EventBoundError("must be a snapshot number (5, -1), NOW, a time ago (1hour, 2days, 30mins) or a Unix timestamp");
}
