/** net.cidr_* builtins over IPv4/IPv6 addresses held as bigints. */
import { Value, RegoSet, isObject, objEntries } from '../value';
import type { BuiltinImpl } from './contract';
import { BuiltinError, BuiltinLimitError, BuiltinTypeError } from './errors';
import { str, typeErr, oneOf } from './operands';

interface Net {
  v6: boolean;
  bits: number; // 32 or 128
  start: bigint; // network address
  prefix: number;
}

function parseIPv4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || (p.length > 1 && p[0] === '0')) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    v = (v << 8n) | BigInt(n);
  }
  return v;
}

function parseIPv6(s: string): bigint | undefined {
  if (s.includes('%')) return undefined;
  let tail4: bigint | undefined;
  let t = s;
  const lastColon = t.lastIndexOf(':');
  if (t.slice(lastColon + 1).includes('.')) {
    tail4 = parseIPv4(t.slice(lastColon + 1));
    if (tail4 === undefined) return undefined;
    t = t.slice(0, lastColon + 1) + '0:0';
  }
  const dbl = t.split('::');
  if (dbl.length > 2) return undefined;
  const head = dbl[0] ? dbl[0].split(':') : [];
  const tail = dbl.length === 2 && dbl[1] ? dbl[1].split(':') : [];
  const total = head.length + tail.length;
  if (dbl.length === 1 && total !== 8) return undefined;
  if (dbl.length === 2 && total > 7) return undefined;
  const groups = [...head, ...Array(8 - total).fill('0'), ...tail];
  let v = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    v = (v << 16n) | BigInt(parseInt(g, 16));
  }
  if (tail4 !== undefined) v = (v & ~0xffffffffn) | tail4;
  return v;
}

export function parseIP(s: string): { v6: boolean; addr: bigint } | undefined {
  if (s.includes(':')) {
    const a = parseIPv6(s);
    return a === undefined ? undefined : { v6: true, addr: a };
  }
  const a = parseIPv4(s);
  return a === undefined ? undefined : { v6: false, addr: a };
}

export function parseCIDR(s: string): Net {
  const slash = s.indexOf('/');
  if (slash < 0) throw new BuiltinError(`invalid CIDR address: ${s}`);
  const ip = parseIP(s.slice(0, slash));
  const pfx = s.slice(slash + 1);
  const bits = ip?.v6 ? 128 : 32;
  if (!ip || !/^\d{1,3}$/.test(pfx) || Number(pfx) > bits) throw new BuiltinError(`invalid CIDR address: ${s}`);
  const prefix = Number(pfx);
  const mask = maskOf(prefix, bits);
  return { v6: ip.v6, bits, start: ip.addr & mask, prefix };
}

function maskOf(prefix: number, bits: number): bigint {
  const all = (1n << BigInt(bits)) - 1n;
  return all ^ ((1n << BigInt(bits - prefix)) - 1n);
}

function lastOf(n: Net): bigint {
  return n.start | ((1n << BigInt(n.bits - n.prefix)) - 1n);
}

/** CIDR or plain IP (as a /32 or /128). */
function parseNetOrIP(s: string): Net {
  if (s.includes('/')) return parseCIDR(s);
  const ip = parseIP(s);
  if (!ip) throw new BuiltinError(`invalid IP address: ${s}`);
  const bits = ip.v6 ? 128 : 32;
  return { v6: ip.v6, bits, start: ip.addr, prefix: bits };
}

export function formatIP(addr: bigint, v6: boolean): string {
  if (!v6) return [24n, 16n, 8n, 0n].map((s) => String((addr >> s) & 255n)).join('.');
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((addr >> BigInt(i * 16)) & 0xffffn));
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return formatIP(addr & 0xffffffffn, false);
  }
  // longest run of >= 2 zero groups becomes "::"
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return hex.slice(0, best).join(':') + '::' + hex.slice(best + bestLen).join(':');
}

function contains(outer: Net, inner: Net): boolean {
  if (outer.v6 !== inner.v6) return false;
  return inner.start >= outer.start && lastOf(inner) <= lastOf(outer);
}

/** Ranges -> minimal CIDR list. */
function rangeToCIDRs(lo: bigint, hi: bigint, bits: number, v6: boolean): string[] {
  const out: string[] = [];
  while (lo <= hi) {
    let size = 0;
    while (size < bits) {
      const next = size + 1;
      const block = 1n << BigInt(next);
      if (lo % block !== 0n || lo + block - 1n > hi) break;
      size = next;
    }
    out.push(`${formatIP(lo, v6)}/${bits - size}`);
    lo += 1n << BigInt(size);
  }
  return out;
}

/** Entries of a cidr_contains_matches operand: [key, cidr-or-ip string]. */
function matchEntries(v: Value, pos: number): Array<[Value, string]> {
  const out: Array<[Value, string]> = [];
  const item = (key: Value, x: Value) => {
    if (typeof x === 'string') out.push([key, x]);
    else if (Array.isArray(x) && typeof x[0] === 'string') out.push([key, x[0]]);
    else throw new BuiltinTypeError(`operand ${pos} must be one of {string, array, set, object} of strings or arrays whose first element is a string`);
  };
  if (typeof v === 'string') out.push([v, v]);
  else if (Array.isArray(v)) v.forEach((x, i) => item(i, x));
  else if (v instanceof RegoSet) for (const x of v.values()) item(x, x);
  else if (isObject(v)) for (const [k, x] of objEntries(v)) item(k, x);
  else throw typeErr(pos, v, oneOf('string', 'array', 'set', 'object'));
  return out;
}

/** A protection, not OPA's semantics (OPA expands any block): a larger block halts the evaluation. */
const EXPAND_LIMIT = 1n << 22n;

export const NET: Record<string, BuiltinImpl> = {
  'net.cidr_contains': (args) => contains(parseCIDR(str(args, 0)), parseNetOrIP(str(args, 1))),
  'net.cidr_overlap': (args) => contains(parseCIDR(str(args, 0)), parseNetOrIP(str(args, 1))),
  'net.cidr_intersects': (args) => {
    const a = parseCIDR(str(args, 0));
    const b = parseCIDR(str(args, 1));
    return a.v6 === b.v6 && a.start <= lastOf(b) && b.start <= lastOf(a);
  },
  'net.cidr_is_valid': ([v]) => {
    if (typeof v !== 'string') return false;
    try {
      parseCIDR(v);
      return true;
    } catch {
      return false;
    }
  },
  'net.cidr_expand': (args) => {
    const n = parseCIDR(str(args, 0));
    const count = 1n << BigInt(n.bits - n.prefix);
    if (count > EXPAND_LIMIT) throw new BuiltinLimitError(`CIDR ${str(args, 0)} expands to ${count} addresses, above the limit of ${EXPAND_LIMIT}`);
    const out = new RegoSet();
    for (let a = n.start; a <= lastOf(n); a++) out.add(formatIP(a, n.v6));
    return out;
  },
  'net.cidr_merge': (args) => {
    const v = args[0];
    const items = Array.isArray(v) ? v : v instanceof RegoSet ? v.values() : undefined;
    if (!items) throw typeErr(1, v, oneOf('array', 'set'));
    const nets: Net[] = items.map((x) => {
      if (typeof x !== 'string') throw new BuiltinTypeError(`operand 1 must be array of strings but got array containing ${typeof x}`);
      // OPA accepts bare IPv4 addresses (as /32) but wants a prefix length on IPv6 ones.
      if (!x.includes('/') && x.includes(':')) throw new BuiltinError('IPv6 invalid: needs prefix length');
      return parseNetOrIP(x);
    });
    const out = new RegoSet();
    for (const v6 of [false, true]) {
      const ranges = nets.filter((n) => n.v6 === v6).map((n) => [n.start, lastOf(n)] as [bigint, bigint]);
      ranges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      const merged: Array<[bigint, bigint]> = [];
      for (const r of ranges) {
        const last = merged[merged.length - 1];
        if (last && r[0] <= last[1] + 1n) {
          if (r[1] > last[1]) last[1] = r[1];
        } else merged.push([r[0], r[1]]);
      }
      for (const [lo, hi] of merged) for (const c of rangeToCIDRs(lo, hi, v6 ? 128 : 32, v6)) out.add(c);
    }
    return out;
  },
  'net.cidr_contains_matches': (args) => {
    const a = matchEntries(args[0], 1);
    const b = matchEntries(args[1], 2);
    const out = new RegoSet();
    for (const [ka, ca] of a) {
      const na = parseCIDR(ca);
      for (const [kb, cb] of b) if (contains(na, parseNetOrIP(cb))) out.add([ka, kb]);
    }
    return out;
  },
};
