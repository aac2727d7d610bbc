import { MomentSelector } from './moment-expression';

const AGO_UNITS = { second: 'second', minute: 'minute', hour: 'hour', day: 'day', week: 'week', month: 'month' } as const;

/**
 * The SQL condition "`column` is at or before the instant this selector names" for the time-based selectors
 * (`@{...}`), with its parameter: `param` is the placeholder number the caller gives it. The series' latest
 * point satisfying it is the one selected (`ORDER BY column DESC LIMIT 1`).
 */
export function atOrBefore(
  selector: Extract<MomentSelector, { kind: 'at' | 'now' | 'ago' }>,
  column: string,
  param: number,
): { sql: string; params: unknown[] } {
  switch (selector.kind) {
    case 'at':
      return { sql: `${column} <= 'epoch'::timestamptz + $${param}::bigint * interval '1 microsecond'`, params: [selector.epochMicros.toString()] };
    case 'now':
      return { sql: `${column} <= now()`, params: [] };
    case 'ago':
      return { sql: `${column} <= now() - $${param}::int * interval '1 ${AGO_UNITS[selector.unit]}'`, params: [selector.amount] };
  }
}
