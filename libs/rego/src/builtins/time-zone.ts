/** Time zone offsets via Intl (IANA database bundled with Node); UTC/""/Local are UTC (no host environment). */
import { BuiltinError } from './errors';

export interface Zone {
  name: string;
  /** Offset in seconds east of UTC at the given unix milliseconds, and its abbreviation. */
  at(ms: number): { offset: number; abbr: string };
}

export const UTC: Zone = { name: 'UTC', at: () => ({ offset: 0, abbr: 'UTC' }) };

const zones = new Map<string, Zone>();

export function loadZone(name: string): Zone {
  if (name === '' || name === 'UTC' || name === 'Local') return UTC;
  let z = zones.get(name);
  if (z) return z;
  let fmt: Intl.DateTimeFormat;
  let abbrFmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    abbrFmt = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'short' });
  } catch {
    throw new BuiltinError(`unknown time zone ${name}`);
  }
  z = {
    name,
    at(ms: number) {
      // Offsets are whole seconds; evaluate at the start of the second.
      const base = Math.floor(ms / 1000) * 1000;
      const parts: Record<string, string> = {};
      for (const p of fmt.formatToParts(new Date(base))) parts[p.type] = p.value;
      let year = Number(parts.year);
      if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
      const d = new Date(0);
      d.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
      d.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second), 0);
      const offset = Math.round((d.getTime() - base) / 1000);
      let abbr = abbrFmt.formatToParts(new Date(base)).find((p) => p.type === 'timeZoneName')?.value ?? '';
      const m = /^GMT([+-])(\d{1,2})(?::(\d{2}))?$/.exec(abbr);
      if (m) abbr = m[1] + m[2].padStart(2, '0') + (m[3] && m[3] !== '00' ? m[3] : '');
      if (abbr === 'GMT' && offset === 0 && name !== 'GMT' && !name.startsWith('Europe/')) abbr = 'UTC';
      return { offset, abbr };
    },
  };
  zones.set(name, z);
  return z;
}
