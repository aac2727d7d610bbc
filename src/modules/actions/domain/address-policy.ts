import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a notification may be sent to. Unless the operator allows private targets, only public
 * unicast addresses: no loopback, private (RFC 1918, unique local), link-local (cloud metadata services live
 * there), carrier-grade NAT, multicast, reserved, documentation or unspecified ranges, in IPv4 or IPv6, and no
 * IPv6 form that embeds one of those IPv4 addresses (mapped, NAT64, 6to4).
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIpv4(address: string): string | null {
  const words = expandIpv6(address);
  if (!words) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zero(0, 5) && words[5] === 0xffff) return v4(words[6], words[7]);
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) return v4(words[6], words[7]);
  if (words[0] === 0x2002) return v4(words[1], words[2]);
  if (zero(0, 6) && (words[6] !== 0 || words[7] > 1)) return v4(words[6], words[7]); // deprecated IPv4-compatible ::a.b.c.d
  return null;
}

/** The eight 16-bit words of an IPv6 address (a dotted IPv4 tail allowed), or null. */
function expandIpv6(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1].split('.').map(Number);
    text = text.slice(0, -dotted[1].length) + `${((parts[0] << 8) | parts[1]).toString(16)}:${((parts[2] << 8) | parts[3]).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const fill = text.includes('::') ? 8 - h.length - t.length : 0;
  const words = [...h, ...Array(fill).fill('0'), ...t].map((w) => parseInt(w, 16));
  return words.length === 8 && words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : null;
}

/** Why this IP address may not be a target, or null when it may. */
export function addressProblem(address: string): string | null {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4') ? `${address} is a private, loopback, link-local or reserved address` : null;
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 && BLOCKED.check(v4, 'ipv4')) return `${address} embeds ${v4}, a private, loopback, link-local or reserved address`;
    return BLOCKED.check(address, 'ipv6') ? `${address} is a private, loopback, link-local or reserved address` : null;
  }
  return `${address} is not an IP address`;
}

/** What is wrong with a target URL before any name is resolved: scheme, form. */
export function urlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (!url.hostname) return 'must name a host';
  return null;
}

/** A URL's host as an IP literal (brackets of IPv6 removed), or null when it is a name to resolve. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : null;
}
