/**
 * X.509 details Node's X509Certificate does not expose (name attributes in order, key usage bits, key ids,
 * signature algorithm, raw extensions) and PKCS#10 certificate requests, shaped like Go's x509 structs.
 */
import { createPublicKey } from 'crypto';
import { Value, makeObject } from '../value';
import * as N from '../number';
import { read, children, bytes, whole, oid, text, integer, Node } from './asn1';
import { formatIP } from './net';

const NAME_ATTRS: Record<string, string> = {
  '2.5.4.6': 'Country',
  '2.5.4.10': 'Organization',
  '2.5.4.11': 'OrganizationalUnit',
  '2.5.4.7': 'Locality',
  '2.5.4.8': 'Province',
  '2.5.4.9': 'StreetAddress',
  '2.5.4.17': 'PostalCode',
};

/** Go's x509.SignatureAlgorithm numbering. */
const SIG_ALGS: Record<string, number> = {
  '1.2.840.113549.1.1.4': 2, // MD5WithRSA
  '1.2.840.113549.1.1.5': 3, // SHA1WithRSA
  '1.2.840.113549.1.1.11': 4,
  '1.2.840.113549.1.1.12': 5,
  '1.2.840.113549.1.1.13': 6,
  '1.2.840.10040.4.3': 7, // DSAWithSHA1
  '2.16.840.1.101.3.4.3.2': 8, // DSAWithSHA256
  '1.2.840.10045.4.1': 9,
  '1.2.840.10045.4.3.2': 10,
  '1.2.840.10045.4.3.3': 11,
  '1.2.840.10045.4.3.4': 12,
  '1.2.840.113549.1.1.10': 13, // RSASSA-PSS (Go picks 13/14/15 by hash; 13 = SHA256)
  '1.3.101.112': 16, // Ed25519
};

const oidInts = (s: string): Value[] => s.split('.').map(Number);

/** pkix.Name from a DER Name. */
export function nameObject(buf: Buffer, n: Node): Value {
  const fields: Record<string, string[]> = {};
  const names: Value[] = [];
  let cn = '';
  let serial = '';
  for (const rdn of children(buf, n)) {
    for (const atv of children(buf, rdn)) {
      const [t, v] = children(buf, atv);
      const id = oid(buf, t);
      const val = text(buf, v);
      names.push(makeObject([['Type', oidInts(id)], ['Value', val]]));
      if (id === '2.5.4.3') cn = val;
      else if (id === '2.5.4.5') serial = val;
      else if (NAME_ATTRS[id]) (fields[NAME_ATTRS[id]] ??= []).push(val);
    }
  }
  const entries: [Value, Value][] = Object.values(NAME_ATTRS).map((f) => [f, fields[f] ?? null] as [Value, Value]);
  entries.push(['SerialNumber', serial], ['CommonName', cn], ['Names', names], ['ExtraNames', null]);
  return makeObject(entries);
}

interface Ext {
  id: string;
  critical: boolean;
  value: Buffer;
}

function extensions(buf: Buffer, n: Node): Ext[] {
  return children(buf, n).map((e) => {
    const parts = children(buf, e);
    const critical = parts.length === 3 && parts[1].tag === 1 && buf[parts[1].body] !== 0;
    return { id: oid(buf, parts[0]), critical, value: bytes(buf, parts[parts.length - 1]) };
  });
}

function extensionObjects(exts: Ext[]): Value {
  return exts.map((e) => makeObject([['Id', oidInts(e.id)], ['Critical', e.critical], ['Value', e.value.toString('base64')]]));
}

interface SANs {
  dns: string[];
  email: string[];
  ip: string[];
  uri: string[];
}

function formatIPBytes(b: Buffer): string {
  if (b.length !== 4 && b.length !== 16) return b.toString('hex');
  return formatIP(BigInt('0x' + b.toString('hex')), b.length === 16);
}

function subjectAltNames(exts: Ext[]): SANs {
  const out: SANs = { dns: [], email: [], ip: [], uri: [] };
  const san = exts.find((e) => e.id === '2.5.29.17');
  if (!san) return out;
  const seq = read(san.value, 0);
  for (const g of children(san.value, seq)) {
    const b = bytes(san.value, g);
    if (g.tag === 2) out.dns.push(b.toString('latin1'));
    else if (g.tag === 1) out.email.push(b.toString('latin1'));
    else if (g.tag === 6) out.uri.push(b.toString('latin1'));
    else if (g.tag === 7) out.ip.push(formatIPBytes(b));
  }
  return out;
}

function publicKeyFields(spki: Buffer): { alg: number; jwk: Value } {
  try {
    const k = createPublicKey({ key: spki, format: 'der', type: 'spki' });
    const t = k.asymmetricKeyType;
    const alg = t === 'rsa' || t === 'rsa-pss' ? 1 : t === 'dsa' ? 2 : t === 'ec' ? 3 : t === 'ed25519' ? 4 : 0;
    return { alg, jwk: k.export({ format: 'jwk' }) as unknown as Value };
  } catch {
    return { alg: 0, jwk: null };
  }
}

function algOf(buf: Buffer, algId: Node): number {
  return SIG_ALGS[oid(buf, children(buf, algId)[0])] ?? 0;
}

/** Certificate fields beyond Node's X509Certificate. */
export function certificateExtras(der: Buffer): Record<string, Value> {
  const cert = read(der, 0);
  const [tbs, sigAlg, sig] = children(der, cert);
  let parts = children(der, tbs);
  let version = 1;
  if (parts[0].cls === 2 && parts[0].tag === 0) {
    version = Number(integer(der, children(der, parts[0])[0])) + 1;
    parts = parts.slice(1);
  }
  const [serial, , issuer, , subject, spki] = parts;
  const extWrap = parts.find((p) => p.cls === 2 && p.tag === 3);
  const exts = extWrap ? extensions(der, children(der, extWrap)[0]) : [];
  let keyUsage = 0;
  const ku = exts.find((e) => e.id === '2.5.29.15');
  if (ku) {
    const bs = read(ku.value, 0);
    const b = bytes(ku.value, bs).subarray(1);
    for (let i = 0; i < b.length * 8 && i < 16; i++) if (b[i >> 3] & (0x80 >> (i & 7))) keyUsage |= 1 << i;
  }
  const ski = exts.find((e) => e.id === '2.5.29.14');
  const aki = exts.find((e) => e.id === '2.5.29.35');
  let akid: Value = null;
  if (aki) {
    const seq = read(aki.value, 0);
    const kid = children(aki.value, seq).find((c) => c.cls === 2 && c.tag === 0);
    if (kid) akid = bytes(aki.value, kid).toString('base64');
  }
  let maxPathLen = -1;
  const bc = exts.find((e) => e.id === '2.5.29.19');
  if (bc) {
    const seq = read(bc.value, 0);
    const pl = children(bc.value, seq).find((c) => c.tag === 2);
    if (pl) maxPathLen = Number(integer(bc.value, pl));
  }
  return {
    Version: version,
    SerialNumber: N.normalize(integer(der, serial)),
    Issuer: nameObject(der, issuer),
    Subject: nameObject(der, subject),
    RawSubject: whole(der, subject).toString('base64'),
    RawIssuer: whole(der, issuer).toString('base64'),
    RawSubjectPublicKeyInfo: whole(der, spki).toString('base64'),
    RawTBSCertificate: whole(der, tbs).toString('base64'),
    Signature: bytes(der, sig).subarray(1).toString('base64'),
    SignatureAlgorithm: algOf(der, sigAlg),
    KeyUsage: keyUsage,
    SubjectKeyId: ski ? bytes(ski.value, read(ski.value, 0)).toString('base64') : null,
    AuthorityKeyId: akid,
    MaxPathLen: maxPathLen,
    MaxPathLenZero: maxPathLen === 0,
    Extensions: extensionObjects(exts),
  };
}

/** Go's x509.CertificateRequest (the fields that survive JSON). */
export function certificateRequest(der: Buffer): Value {
  const csr = read(der, 0);
  const [info, sigAlg, sig] = children(der, csr);
  const [version, subject, spki, attrs] = children(der, info);
  let exts: Ext[] = [];
  if (attrs && attrs.cls === 2) {
    for (const attr of children(der, attrs)) {
      const [id, values] = children(der, attr);
      if (oid(der, id) === '1.2.840.113549.1.9.14') {
        const first = children(der, values)[0];
        if (first) exts = extensions(der, first);
      }
    }
  }
  const san = subjectAltNames(exts);
  const pk = publicKeyFields(whole(der, spki));
  return makeObject([
    ['Raw', der.toString('base64')],
    ['RawTBSCertificateRequest', whole(der, info).toString('base64')],
    ['RawSubjectPublicKeyInfo', whole(der, spki).toString('base64')],
    ['RawSubject', whole(der, subject).toString('base64')],
    ['Version', Number(integer(der, version))],
    ['Signature', bytes(der, sig).subarray(1).toString('base64')],
    ['SignatureAlgorithm', algOf(der, sigAlg)],
    ['PublicKeyAlgorithm', pk.alg],
    ['PublicKey', pk.jwk],
    ['Subject', nameObject(der, subject)],
    ['Extensions', exts.length ? extensionObjects(exts) : null],
    ['ExtraExtensions', null],
    ['DNSNames', san.dns.length ? san.dns : null],
    ['EmailAddresses', san.email.length ? san.email : null],
    ['IPAddresses', san.ip.length ? san.ip : null],
    ['URIs', san.uri.length ? san.uri : null],
  ]);
}
