/** time.* builtins: nanosecond timestamps (bigint when beyond 2^53), Go layouts, IANA zones. */
import { Value } from '../value';
import * as N from '../number';
import type { BuiltinImpl } from './contract';
import { BuiltinError } from './errors';
import { str, smallInt, typeErr } from './operands';
import { loadZone, UTC, Zone } from './time-zone';
import { civil, fromCivil, formatTime, parseTime, parseDuration, NAMED_LAYOUTS, DAYS, daysIn } from './go-time';

const MIN_NS = -(2n ** 63n);
const MAX_NS = 2n ** 63n - 1n;

function safeNs(ns: bigint): Value {
  if (ns < MIN_NS || ns > MAX_NS) throw new BuiltinError('time outside of valid range');
  return N.normalize(ns);
}

/** Operand `ns` or `[ns, tz]` or `[ns, tz, layout]`. */
function tzTime(v: Value): { ns: bigint; zone: Zone; layout: string } {
  let nv: Value;
  let zone: Zone = UTC;
  let layout = '';
  const want = 'either number (ns) or [number (ns), string (tz)]';
  if (Array.isArray(v)) {
    if (v.length === 0) throw typeErr(1, v, want);
    nv = v[0];
    if (!N.isNumOrBig(nv)) throw typeErr(1, nv, 'number');
    if (v.length > 1) {
      if (typeof v[1] !== 'string') throw typeErr(1, v[1], 'string');
      zone = loadZone(v[1]);
    }
    if (v.length > 2) {
      if (typeof v[2] !== 'string') throw typeErr(1, v[2], 'string');
      layout = v[2];
    }
  } else if (N.isNumOrBig(v)) nv = v;
  else throw typeErr(1, v, want);
  const n = nv as N.Num;
  if (!N.isInt(n)) throw new BuiltinError('timestamp too big');
  const ns = N.toBigInt(n);
  if (ns < MIN_NS || ns > MAX_NS) throw new BuiltinError('timestamp too big');
  return { ns, zone, layout };
}

function diff(a: Value, b: Value): Value[] {
  const t1 = tzTime(a);
  const t2 = tzTime(b);
  let [x, y] = [t1.ns, t2.ns];
  if (x > y) [x, y] = [y, x];
  const c1 = civil(x, t1.zone);
  const c2 = civil(y, t1.zone);
  let year = c2.year - c1.year;
  let month = c2.month - c1.month;
  let day = c2.day - c1.day;
  let hour = c2.hour - c1.hour;
  let min = c2.minute - c1.minute;
  let sec = c2.second - c1.second;
  if (sec < 0) {
    sec += 60;
    min--;
  }
  if (min < 0) {
    min += 60;
    hour--;
  }
  if (hour < 0) {
    hour += 24;
    day--;
  }
  if (day < 0) {
    // borrow the length of t1's month
    day += daysIn(c1.month, c1.year);
    month--;
  }
  if (month < 0) {
    month += 12;
    year--;
  }
  return [year, month, day, hour, min, sec];
}

export const TIME: Record<string, BuiltinImpl> = {
  'time.now_ns': (_args, ctx) => N.normalize(ctx.nowNs),
  'time.parse_ns': (args) => {
    const layout = str(args, 0);
    return safeNs(parseTime(NAMED_LAYOUTS[layout] ?? layout, str(args, 1)));
  },
  'time.parse_rfc3339_ns': (args) => safeNs(parseTime(NAMED_LAYOUTS.RFC3339, str(args, 0))),
  'time.parse_duration_ns': (args) => N.normalize(parseDuration(str(args, 0))),
  'time.format': (args) => {
    const t = tzTime(args[0]);
    const layout = t.layout === '' ? NAMED_LAYOUTS.RFC3339Nano : NAMED_LAYOUTS[t.layout] ?? t.layout;
    return formatTime(civil(t.ns, t.zone), layout);
  },
  'time.date': (args) => {
    const t = tzTime(args[0]);
    const c = civil(t.ns, t.zone);
    return [c.year, c.month, c.day];
  },
  'time.clock': (args) => {
    const t = tzTime(args[0]);
    const c = civil(t.ns, t.zone);
    return [c.hour, c.minute, c.second];
  },
  'time.weekday': (args) => {
    const t = tzTime(args[0]);
    return DAYS[civil(t.ns, t.zone).weekday];
  },
  'time.add_date': (args) => {
    const t = tzTime(args[0]);
    const years = smallInt(args, 1);
    const months = smallInt(args, 2);
    const days = smallInt(args, 3);
    const c = civil(t.ns, t.zone);
    return safeNs(fromCivil(c.year + years, c.month + months, c.day + days, c.hour, c.minute, c.second, c.nanos, t.zone));
  },
  'time.diff': (args) => diff(args[0], args[1]),
};
