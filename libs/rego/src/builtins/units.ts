/** units.parse (SI/IEC suffixes, m = milli) and units.parse_bytes (byte units, integer result). */
import { Value } from '../value';
import * as N from '../number';
import type { BuiltinImpl } from './contract';
import { BuiltinError } from './errors';
import { str } from './operands';

/** A multiplier as an exact fraction num/den. */
type Mult = [bigint, bigint];

const SI: Record<string, Mult> = {
  '': [1n, 1n],
  m: [1n, 1000n],
  k: [1000n, 1n],
  K: [1000n, 1n],
  M: [10n ** 6n, 1n],
  g: [10n ** 9n, 1n],
  G: [10n ** 9n, 1n],
  t: [10n ** 12n, 1n],
  T: [10n ** 12n, 1n],
  p: [10n ** 15n, 1n],
  P: [10n ** 15n, 1n],
  e: [10n ** 18n, 1n],
  E: [10n ** 18n, 1n],
  ki: [2n ** 10n, 1n],
  Ki: [2n ** 10n, 1n],
  mi: [2n ** 20n, 1n],
  Mi: [2n ** 20n, 1n],
  gi: [2n ** 30n, 1n],
  Gi: [2n ** 30n, 1n],
  ti: [2n ** 40n, 1n],
  Ti: [2n ** 40n, 1n],
  pi: [2n ** 50n, 1n],
  Pi: [2n ** 50n, 1n],
  ei: [2n ** 60n, 1n],
  Ei: [2n ** 60n, 1n],
};

const BYTES: Record<string, Mult> = {
  '': [1n, 1n],
  b: [1n, 1n],
  k: [1000n, 1n],
  kb: [1000n, 1n],
  ki: [2n ** 10n, 1n],
  kib: [2n ** 10n, 1n],
  m: [10n ** 6n, 1n],
  mb: [10n ** 6n, 1n],
  mi: [2n ** 20n, 1n],
  mib: [2n ** 20n, 1n],
  g: [10n ** 9n, 1n],
  gb: [10n ** 9n, 1n],
  gi: [2n ** 30n, 1n],
  gib: [2n ** 30n, 1n],
  t: [10n ** 12n, 1n],
  tb: [10n ** 12n, 1n],
  ti: [2n ** 40n, 1n],
  tib: [2n ** 40n, 1n],
  p: [10n ** 15n, 1n],
  pb: [10n ** 15n, 1n],
  pi: [2n ** 50n, 1n],
  pib: [2n ** 50n, 1n],
  e: [10n ** 18n, 1n],
  eb: [10n ** 18n, 1n],
  ei: [2n ** 60n, 1n],
  eib: [2n ** 60n, 1n],
};

/** Splits "12.5Mi" into ["12.5", "Mi"]: the number is the leading run of digits and dots. */
function split(raw: string): [string, string] {
  const m = /^[0-9.]*/.exec(raw)!;
  return [m[0], raw.slice(m[0].length)];
}

/** Decimal text -> exact fraction, or undefined if not a plain decimal. */
function decimal(s: string): [bigint, bigint] | undefined {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) return undefined;
  const frac = m[2] ?? '';
  return [BigInt((m[1] || '0') + frac), 10n ** BigInt(frac.length)];
}

function scaled(num: string, mult: Mult, truncate: boolean, what: string): Value {
  const d = decimal(num);
  if (!d) throw new BuiltinError(`could not parse ${what} to a number`);
  const n = d[0] * mult[0];
  const den = d[1] * mult[1];
  if (n % den === 0n || truncate) return N.normalize(n / den);
  return Number(n) / Number(den);
}

export const UNITS: Record<string, BuiltinImpl> = {
  'units.parse': (args) => {
    let raw = str(args, 0).replace(/"/g, '');
    if (raw.includes(' ')) throw new BuiltinError('spaces not allowed in resource strings');
    const [num, unitRaw] = split(raw);
    if (num === '') throw new BuiltinError('no amount provided');
    // Case matters only for the first letter (m = milli, M = mega); the rest is lowercased.
    let unit = unitRaw;
    if (unit.length > 1) unit = unit[0] + unit.slice(1).toLowerCase();
    const mult = SI[unit];
    if (!mult) throw new BuiltinError(`unit ${JSON.stringify(unitRaw)} not recognized`);
    raw = num;
    return scaled(raw, mult, false, 'amount');
  },
  'units.parse_bytes': (args) => {
    const raw = str(args, 0).replace(/"/g, '');
    if (raw.includes(' ')) throw new BuiltinError('spaces not allowed in resource strings');
    const [num, unitRaw] = split(raw.toLowerCase());
    if (num === '') throw new BuiltinError('no byte amount provided');
    const mult = BYTES[unitRaw];
    if (!mult) throw new BuiltinError('byte unit suffix not recognized');
    return scaled(num, mult, true, 'byte amount');
  },
};
