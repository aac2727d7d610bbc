/** uuid.rfc4122 (random v4, stable per input string within one evaluation) and uuid.parse. */
import { randomUUID } from 'crypto';
import { Value, makeObject } from '../value';
import * as N from '../number';
import type { BuiltinImpl } from './contract';
import { BuiltinError } from './errors';
import { str } from './operands';

const GREGORIAN_OFFSET = 0x01b21dd213814000n; // 100ns intervals between 1582-10-15 and 1970-01-01

function uuidBytes(s: string): Buffer {
  let t = s;
  if (t.length === 45 && t.toLowerCase().startsWith('urn:uuid:')) t = t.slice(9);
  else if (t.length === 38 && t.startsWith('{') && t.endsWith('}')) t = t.slice(1, -1);
  let hex: string;
  if (t.length === 36) {
    if (t[8] !== '-' || t[13] !== '-' || t[18] !== '-' || t[23] !== '-') throw new BuiltinError('invalid UUID format');
    hex = t.replace(/-/g, '');
  } else if (t.length === 32) hex = t;
  else throw new BuiltinError(`invalid UUID length: ${s.length}`);
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new BuiltinError('invalid UUID format');
  return Buffer.from(hex, 'hex');
}

function variantName(b: number): string {
  if ((b & 0xc0) === 0x80) return 'RFC4122';
  if ((b & 0xe0) === 0xc0) return 'Microsoft';
  if ((b & 0xe0) === 0xe0) return 'Future';
  return 'Reserved';
}

function parseUUID(s: string): Value {
  const u = uuidBytes(s);
  const version = u[6] >> 4;
  const variant = variantName(u[8]);
  const entries: [Value, Value][] = [
    ['version', version],
    ['variant', variant],
  ];
  if (version === 1 || version === 2) {
    const t = BigInt(u.readUInt32BE(0)) | (BigInt(u.readUInt16BE(4)) << 32n) | (BigInt(u.readUInt16BE(6) & 0x0fff) << 48n);
    entries.push(['time', N.normalize((t - GREGORIAN_OFFSET) * 100n)]);
    entries.push(['clocksequence', ((u[8] & 0x3f) << 8) | u[9]]);
    const node = Array.from(u.subarray(10, 16), (b) => b.toString(16).padStart(2, '0'));
    entries.push(['nodeid', node.join('-')]);
    const first = u[10];
    entries.push(['macvariables', `${first & 0x02 ? 'local' : 'global'}:${first & 0x01 ? 'multicast' : 'unicast'}`]);
    if (version === 2) {
      entries.push(['id', u.readUInt32BE(0)]);
      const domains = ['Person', 'Group', 'Org'];
      entries.push(['domain', domains[u[9]] ?? `Domain${u[9]}`]);
    }
  }
  return makeObject(entries);
}

export const UUID: Record<string, BuiltinImpl> = {
  'uuid.rfc4122': (args, ctx) => {
    const k = 'uuid.rfc4122\u0000' + str(args, 0);
    let v = ctx.cache.get(k) as string | undefined;
    if (v === undefined) {
      v = randomUUID();
      ctx.cache.set(k, v);
    }
    return v;
  },
  'uuid.parse': (args) => parseUUID(str(args, 0)),
};
