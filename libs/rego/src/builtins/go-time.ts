/**
 * Go's time layouts ("Mon Jan 2 15:04:05 MST 2006"): formatting and parsing, over civil times computed from
 * unix nanoseconds (bigint) and a zone.
 */
import { BuiltinError } from './errors';
import { Zone, UTC } from './time-zone';

export const NAMED_LAYOUTS: Record<string, string> = {
  ANSIC: 'Mon Jan _2 15:04:05 2006',
  UnixDate: 'Mon Jan _2 15:04:05 MST 2006',
  RubyDate: 'Mon Jan 02 15:04:05 -0700 2006',
  RFC822: '02 Jan 06 15:04 MST',
  RFC822Z: '02 Jan 06 15:04 -0700',
  RFC850: 'Monday, 02-Jan-06 15:04:05 MST',
  RFC1123: 'Mon, 02 Jan 2006 15:04:05 MST',
  RFC1123Z: 'Mon, 02 Jan 2006 15:04:05 -0700',
  RFC3339: '2006-01-02T15:04:05Z07:00',
  RFC3339Nano: '2006-01-02T15:04:05.999999999Z07:00',
};

export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const NS_PER_SEC = 1_000_000_000n;
const NS_PER_DAY = 86_400n * NS_PER_SEC;

export interface Civil {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanos: number;
  weekday: number; // 0 = Sunday
  yday: number; // 1-366
  offset: number; // seconds east of UTC
  abbr: string;
}

/** Days since 1970-01-01 -> civil date (proleptic Gregorian). */
export function civilFromDays(z: number): [number, number, number] {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [m <= 2 ? y + 1 : y, m, d];
}

/** Civil date -> days since 1970-01-01; month/day may be out of range (normalised like Go's time.Date). */
export function daysFromCivil(y: number, m: number, d: number): number {
  // normalise month into 1..12 first
  const m0 = m - 1;
  y += Math.floor(m0 / 12);
  m = (((m0 % 12) + 12) % 12) + 1;
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysIn(month: number, year: number): number {
  return [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

export function civil(ns: bigint, zone: Zone = UTC): Civil {
  const ms = Number(floorDiv(ns, 1_000_000n));
  const { offset, abbr } = zone.at(ms);
  const local = ns + BigInt(offset) * NS_PER_SEC;
  const days = floorDiv(local, NS_PER_DAY);
  const rem = local - days * NS_PER_DAY;
  const [year, month, day] = civilFromDays(Number(days));
  const secOfDay = Number(rem / NS_PER_SEC);
  const nanos = Number(rem % NS_PER_SEC);
  const weekday = (((Number(days) + 4) % 7) + 7) % 7;
  const yday = Number(days) - daysFromCivil(year, 1, 1) + 1;
  return {
    year,
    month,
    day,
    hour: Math.floor(secOfDay / 3600),
    minute: Math.floor((secOfDay % 3600) / 60),
    second: secOfDay % 60,
    nanos,
    weekday,
    yday,
    offset,
    abbr,
  };
}

/** Civil fields (possibly out of range) in a zone -> unix ns, as Go's time.Date resolves them. */
export function fromCivil(y: number, mo: number, d: number, h: number, mi: number, s: number, nanos: number, zone: Zone): bigint {
  const days = daysFromCivil(y, mo, d);
  const local = BigInt(days) * NS_PER_DAY + BigInt(h * 3600 + mi * 60 + s) * NS_PER_SEC + BigInt(nanos);
  if (zone === UTC) return local;
  // Guess with the offset at the local time read as UTC, then correct once.
  let off = zone.at(Number(local / 1_000_000n)).offset;
  let utc = local - BigInt(off) * NS_PER_SEC;
  const off2 = zone.at(Number(utc / 1_000_000n)).offset;
  if (off2 !== off) {
    off = off2;
    utc = local - BigInt(off) * NS_PER_SEC;
  }
  return utc;
}

// ---------------------------------------------------------------------------------------------------------------
// Layout chunks

type Std =
  | 'Jan' | 'January' | 'Mon' | 'Monday' | 'MST' | '01' | '1' | '02' | '2' | '_2' | '002' | '__2'
  | '06' | '2006' | '15' | '3' | '03' | '4' | '04' | '5' | '05' | 'PM' | 'pm'
  | '-070000' | '-07:00:00' | '-0700' | '-07:00' | '-07' | 'Z070000' | 'Z07:00:00' | 'Z0700' | 'Z07:00' | 'Z07'
  | 'frac0' | 'frac9';

interface Chunk {
  lit?: string;
  std?: Std;
  n?: number; // fraction digits
  sep?: string; // fraction separator
}

function chunks(layout: string): Chunk[] {
  const out: Chunk[] = [];
  let lit = '';
  const push = (c: Chunk) => {
    if (lit) out.push({ lit });
    lit = '';
    out.push(c);
  };
  let i = 0;
  const at = (s: string) => layout.startsWith(s, i);
  while (i < layout.length) {
    const c = layout[i];
    let std: Std | undefined;
    switch (c) {
      case 'J':
        if (at('January')) std = 'January';
        else if (at('Jan')) std = 'Jan';
        break;
      case 'M':
        if (at('Monday')) std = 'Monday';
        else if (at('Mon')) std = 'Mon';
        else if (at('MST')) std = 'MST';
        break;
      case '0':
        if (at('002')) std = '002';
        else if (/^0[1-6]/.test(layout.slice(i, i + 2))) std = layout.slice(i, i + 2) as Std;
        break;
      case '1':
        std = at('15') ? '15' : '1';
        break;
      case '2':
        std = at('2006') ? '2006' : '2';
        break;
      case '_':
        if (at('_2')) {
          if (at('_2006')) {
            lit += '_';
            i++;
            continue;
          }
          std = '_2';
        } else if (at('__2')) std = '__2';
        break;
      case '3':
      case '4':
      case '5':
        std = c as Std;
        break;
      case 'P':
        if (at('PM')) std = 'PM';
        break;
      case 'p':
        if (at('pm')) std = 'pm';
        break;
      case '-':
        for (const s of ['-070000', '-07:00:00', '-0700', '-07:00', '-07'] as Std[]) if (!std && at(s)) std = s;
        break;
      case 'Z':
        for (const s of ['Z070000', 'Z07:00:00', 'Z0700', 'Z07:00', 'Z07'] as Std[]) if (!std && at(s)) std = s;
        break;
      case '.':
      case ',': {
        const d = layout[i + 1];
        if (d === '0' || d === '9') {
          let j = i + 1;
          while (layout[j] === d) j++;
          if (!/[0-9]/.test(layout[j] ?? '')) {
            push({ std: d === '0' ? 'frac0' : 'frac9', n: j - i - 1, sep: c });
            i = j;
            continue;
          }
        }
        break;
      }
    }
    if (std) {
      push({ std });
      i += std.length;
    } else {
      lit += c;
      i++;
    }
  }
  if (lit) out.push({ lit });
  return out;
}

function pad(n: number, w: number): string {
  const s = String(Math.abs(n)).padStart(w, '0');
  return n < 0 ? '-' + s : s;
}

function fmtOffset(off: number, std: Std): string {
  if (off === 0 && std.startsWith('Z')) return 'Z';
  const sign = off < 0 ? '-' : '+';
  const a = Math.abs(off);
  const hh = pad(Math.floor(a / 3600), 2);
  const mm = pad(Math.floor((a % 3600) / 60), 2);
  const ss = pad(a % 60, 2);
  const kind = std.replace(/^Z/, '-');
  switch (kind) {
    case '-07':
      return sign + hh;
    case '-0700':
      return sign + hh + mm;
    case '-07:00':
      return sign + hh + ':' + mm;
    case '-070000':
      return sign + hh + mm + ss;
    default:
      return sign + hh + ':' + mm + ':' + ss;
  }
}

export function formatTime(c: Civil, layout: string): string {
  let out = '';
  for (const ch of chunks(layout)) {
    if (ch.lit !== undefined) {
      out += ch.lit;
      continue;
    }
    const h12 = c.hour % 12 === 0 ? 12 : c.hour % 12;
    switch (ch.std!) {
      case 'Jan':
        out += MONTHS[c.month - 1].slice(0, 3);
        break;
      case 'January':
        out += MONTHS[c.month - 1];
        break;
      case 'Mon':
        out += DAYS[c.weekday].slice(0, 3);
        break;
      case 'Monday':
        out += DAYS[c.weekday];
        break;
      case 'MST':
        out += c.abbr || fmtOffset(c.offset, '-0700');
        break;
      case '01':
        out += pad(c.month, 2);
        break;
      case '1':
        out += c.month;
        break;
      case '02':
        out += pad(c.day, 2);
        break;
      case '2':
        out += c.day;
        break;
      case '_2':
        out += String(c.day).padStart(2, ' ');
        break;
      case '002':
        out += pad(c.yday, 3);
        break;
      case '__2':
        out += String(c.yday).padStart(3, ' ');
        break;
      case '06':
        out += pad(((c.year % 100) + 100) % 100, 2);
        break;
      case '2006':
        out += pad(c.year, 4);
        break;
      case '15':
        out += pad(c.hour, 2);
        break;
      case '3':
        out += h12;
        break;
      case '03':
        out += pad(h12, 2);
        break;
      case '4':
        out += c.minute;
        break;
      case '04':
        out += pad(c.minute, 2);
        break;
      case '5':
        out += c.second;
        break;
      case '05':
        out += pad(c.second, 2);
        break;
      case 'PM':
        out += c.hour >= 12 ? 'PM' : 'AM';
        break;
      case 'pm':
        out += c.hour >= 12 ? 'pm' : 'am';
        break;
      case 'frac0':
        out += ch.sep + String(c.nanos).padStart(9, '0').slice(0, ch.n);
        break;
      case 'frac9': {
        const f = String(c.nanos).padStart(9, '0').slice(0, ch.n).replace(/0+$/, '');
        if (f) out += ch.sep + f;
        break;
      }
      default:
        out += fmtOffset(c.offset, ch.std!);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing

function quote(s: string): string {
  return JSON.stringify(s);
}

class ParseFail extends Error {}

export function parseTime(layout: string, value: string, defaultZone: Zone = UTC): bigint {
  const fail = (elem: string, rest: string, msg = ''): never => {
    throw new BuiltinError(
      msg
        ? `parsing time ${quote(value)}${msg}`
        : `parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(rest)} as ${quote(elem)}`,
    );
  };
  const cs = chunks(layout);
  let v = value;
  let year = 1;
  let month = -1;
  let day = -1;
  let yday = -1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let nanos = 0;
  let pmSet = false;
  let amSet = false;
  let zoneOffset: number | undefined;

  const num = (fixed: boolean, min = 1, max = 2): number => {
    const m = new RegExp(`^\\d{${fixed ? max : min},${max}}`).exec(v);
    if (!m || (fixed && m[0].length !== max)) throw new ParseFail();
    v = v.slice(m[0].length);
    return Number(m[0]);
  };
  const lookup = (names: string[]): number => {
    for (let i = 0; i < names.length; i++) {
      if (v.length >= names[i].length && v.slice(0, names[i].length).toLowerCase() === names[i].toLowerCase()) {
        v = v.slice(names[i].length);
        return i;
      }
    }
    throw new ParseFail();
  };
  for (let ci = 0; ci < cs.length; ci++) {
    const ch = cs[ci];
    if (ch.lit !== undefined) {
      // Go's skip(): a space in the layout matches one or more spaces in the value.
      let p = ch.lit;
      while (p.length) {
        if (p[0] === ' ') {
          if (v.length && v[0] !== ' ') fail(ch.lit, v);
          p = p.replace(/^ +/, '');
          v = v.replace(/^ +/, '');
          continue;
        }
        if (!v.length || v[0] !== p[0]) fail(ch.lit, v);
        p = p.slice(1);
        v = v.slice(1);
      }
      continue;
    }
    const std = ch.std!;
    const before = v;
    const stdText = std === 'frac0' || std === 'frac9' ? ch.sep + (std === 'frac0' ? '0' : '9').repeat(ch.n!) : std;
    try {
      switch (std) {
        case '2006': {
          const m = /^\d{4}/.exec(v);
          if (!m) throw new ParseFail();
          year = Number(m[0]);
          v = v.slice(4);
          break;
        }
        case '06': {
          const y = num(true, 2, 2);
          year = y >= 69 ? 1900 + y : 2000 + y;
          break;
        }
        case 'Jan':
          month = lookup(MONTHS.map((m) => m.slice(0, 3))) + 1;
          break;
        case 'January':
          month = lookup(MONTHS) + 1;
          break;
        case 'Mon':
          lookup(DAYS.map((d) => d.slice(0, 3)));
          break;
        case 'Monday':
          lookup(DAYS);
          break;
        case '01':
        case '1':
          month = num(std === '01');
          if (month < 1 || month > 12) fail('', '', ': month out of range');
          break;
        case '02':
        case '2':
        case '_2':
          if (std === '_2' && v[0] === ' ') v = v.slice(1);
          day = num(std === '02');
          break;
        case '002':
        case '__2':
          if (std === '__2') v = v.replace(/^ {1,2}/, '');
          yday = num(std === '002', 1, 3);
          break;
        case '15':
          hour = num(false);
          if (hour > 23) fail('', '', ': hour out of range');
          break;
        case '3':
        case '03':
          hour = num(std === '03');
          if (hour < 1 || hour > 12) fail('', '', ': hour out of range');
          break;
        case '4':
        case '04':
          minute = num(std === '04');
          if (minute > 59) fail('', '', ': minute out of range');
          break;
        case '5':
        case '05': {
          second = num(std === '05');
          if (second > 59) fail('', '', ': second out of range');
          // A fraction in the value is accepted even when the layout has none.
          const next = cs[ci + 1];
          const m = /^[.,](\d+)/.exec(v);
          if (m && !(next && (next.std === 'frac0' || next.std === 'frac9'))) {
            nanos = Number(m[1].slice(0, 9).padEnd(9, '0'));
            v = v.slice(m[0].length);
          }
          break;
        }
        case 'PM':
        case 'pm': {
          const t = v.slice(0, 2).toUpperCase();
          if (t === 'PM') pmSet = true;
          else if (t === 'AM') amSet = true;
          else throw new ParseFail();
          v = v.slice(2);
          break;
        }
        case 'frac0': {
          const m = new RegExp(`^[.,](\\d{${ch.n}})`).exec(v);
          if (!m) throw new ParseFail();
          nanos = Number(m[1].slice(0, 9).padEnd(9, '0'));
          v = v.slice(m[0].length);
          break;
        }
        case 'frac9': {
          const m = /^[.,](\d+)/.exec(v);
          if (m) {
            nanos = Number(m[1].slice(0, 9).padEnd(9, '0'));
            v = v.slice(m[0].length);
          }
          break;
        }
        case 'MST': {
          if (v.startsWith('UTC')) {
            zoneOffset = 0;
            v = v.slice(3);
            break;
          }
          const m = /^(GMT[+-]\d{1,2}|[A-Z]{3,5}|[+-]\d{2,4})/.exec(v);
          if (!m) throw new ParseFail();
          const g = /^GMT([+-])(\d{1,2})$/.exec(m[0]);
          zoneOffset = g ? (g[1] === '-' ? -1 : 1) * Number(g[2]) * 3600 : 0;
          v = v.slice(m[0].length);
          break;
        }
        default: {
          // numeric zone offsets, with Z meaning UTC for the Z-forms
          if (std.startsWith('Z') && v[0] === 'Z') {
            v = v.slice(1);
            zoneOffset = 0;
            break;
          }
          const kind = std.replace(/^Z/, '-');
          const re: Record<string, RegExp> = {
            '-07': /^([+-])(\d{2})/,
            '-0700': /^([+-])(\d{2})(\d{2})/,
            '-07:00': /^([+-])(\d{2}):(\d{2})/,
            '-070000': /^([+-])(\d{2})(\d{2})(\d{2})/,
            '-07:00:00': /^([+-])(\d{2}):(\d{2}):(\d{2})/,
          };
          const m = re[kind].exec(v);
          if (!m) throw new ParseFail();
          const off = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
          zoneOffset = m[1] === '-' ? -off : off;
          v = v.slice(m[0].length);
        }
      }
    } catch (e) {
      if (e instanceof ParseFail) fail(stdText, before);
      throw e;
    }
  }
  if (v.length) fail('', '', `: extra text: ${quote(v)}`);
  if (pmSet && hour < 12) hour += 12;
  else if (amSet && hour === 12) hour = 0;
  if (yday >= 0) {
    const days = isLeap(year) ? 366 : 365;
    if (yday < 1 || yday > days) fail('', '', ': day-of-year out of range');
    if (month < 0) {
      const d0 = daysFromCivil(year, 1, 1) + yday - 1;
      const [, m, d] = civilFromDays(d0);
      month = m;
      day = d;
    }
  }
  if (month < 0) month = 1;
  if (day < 0) day = 1;
  if (day < 1 || day > daysIn(month, year)) fail('', '', ': day out of range');
  if (zoneOffset !== undefined) {
    const local = fromCivil(year, month, day, hour, minute, second, nanos, UTC);
    return local - BigInt(zoneOffset) * NS_PER_SEC;
  }
  return fromCivil(year, month, day, hour, minute, second, nanos, defaultZone);
}

// ---------------------------------------------------------------------------------------------------------------
// Durations

const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n,
  'μs': 1_000n,
  ms: 1_000_000n,
  s: NS_PER_SEC,
  m: 60n * NS_PER_SEC,
  h: 3600n * NS_PER_SEC,
};

/** Go's time.ParseDuration, in nanoseconds. */
export function parseDuration(s: string): bigint {
  const orig = s;
  const bad = (): never => {
    throw new BuiltinError(`time: invalid duration ${quote(orig)}`);
  };
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') bad();
  let total = 0n;
  while (s.length) {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    if (m[0] === '' || m[0] === '.' || (m[1] === '' && (m[2] ?? '') === '')) bad();
    s = s.slice(m[0].length);
    const u = /^[^\d.]+/.exec(s);
    if (!u) throw new BuiltinError(`time: missing unit in duration ${quote(orig)}`);
    const unit = UNITS[u[0]];
    if (unit === undefined) throw new BuiltinError(`time: unknown unit ${quote(u[0])} in duration ${quote(orig)}`);
    s = s.slice(u[0].length);
    let v = BigInt(m[1] || '0') * unit;
    const frac = m[2] ?? '';
    if (frac) v += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    total += v;
    if (total > 2n ** 63n - 1n) bad();
  }
  return neg ? -total : total;
}
