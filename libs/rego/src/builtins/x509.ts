/**
 * crypto.x509.* and crypto.parse_private_keys over Node's X509Certificate / KeyObject. Certificates come out as
 * objects with the field names of Go's x509.Certificate that policies use (Subject, Issuer, NotBefore, NotAfter,
 * SerialNumber, DNSNames, ...); keys come out as JWKs.
 */
import { X509Certificate, createPrivateKey, KeyObject } from 'crypto';
import { Value, makeObject, objGet } from '../value';
import * as N from '../number';
import type { BuiltinImpl, BuiltinContext } from './contract';
import { BuiltinError } from './errors';
import { str, obj } from './operands';
import { certificateExtras, certificateRequest } from './x509-der';

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

interface Block {
  type: string;
  der: Buffer;
}

/** PEM blocks, or the whole input as base64 DER (optionally itself base64 of PEM text), as OPA accepts. */
function blocks(input: string): Block[] {
  let text = input;
  if (!text.includes('-----BEGIN')) {
    const raw = Buffer.from(text.trim(), 'base64');
    const asText = raw.toString('latin1');
    if (asText.includes('-----BEGIN')) text = asText;
    else return raw.length ? [{ type: 'DER', der: raw }] : [];
  }
  const out: Block[] = [];
  for (const m of text.matchAll(PEM_BLOCK)) {
    const body = m[2].replace(/^[A-Za-z-]+:.*$/gm, '').replace(/\s+/g, '');
    out.push({ type: m[1], der: Buffer.from(body, 'base64') });
  }
  return out;
}

const NAME_FIELDS: Record<string, [string, number[]]> = {
  C: ['Country', [2, 5, 4, 6]],
  O: ['Organization', [2, 5, 4, 10]],
  OU: ['OrganizationalUnit', [2, 5, 4, 11]],
  L: ['Locality', [2, 5, 4, 7]],
  ST: ['Province', [2, 5, 4, 8]],
  street: ['StreetAddress', [2, 5, 4, 9]],
  postalCode: ['PostalCode', [2, 5, 4, 17]],
};

/** Node's "C=US\nO=Org\nCN=x" -> pkix.Name-shaped object. */
function pkixName(s: string): Value {
  const fields: Record<string, string[]> = {};
  const names: Value[] = [];
  let cn = '';
  let serial = '';
  for (const line of s.split('\n')) {
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const k = line.slice(0, eq);
    const v = line.slice(eq + 1);
    if (k === 'CN') {
      cn = v;
      names.push(makeObject([['Type', [2, 5, 4, 3]], ['Value', v]]));
    } else if (k === 'serialNumber') {
      serial = v;
      names.push(makeObject([['Type', [2, 5, 4, 5]], ['Value', v]]));
    } else if (NAME_FIELDS[k]) {
      const [f, oid] = NAME_FIELDS[k];
      (fields[f] ??= []).push(v);
      names.push(makeObject([['Type', oid], ['Value', v]]));
    }
  }
  const entries: [Value, Value][] = [];
  for (const [, [f]] of Object.entries(NAME_FIELDS)) entries.push([f, fields[f] ?? null]);
  entries.push(['SerialNumber', serial], ['CommonName', cn], ['Names', names], ['ExtraNames', null]);
  return makeObject(entries);
}

function rfc3339(d: string): string {
  return new Date(d).toISOString().replace('.000Z', 'Z');
}

function sans(alt: string | undefined): { dns: string[]; email: string[]; ip: string[]; uri: string[] } {
  const out = { dns: [] as string[], email: [] as string[], ip: [] as string[], uri: [] as string[] };
  if (!alt) return out;
  for (const part of alt.split(/,\s*/)) {
    const i = part.indexOf(':');
    const k = part.slice(0, i);
    const v = part.slice(i + 1);
    if (k === 'DNS') out.dns.push(v);
    else if (k === 'email') out.email.push(v);
    else if (k === 'IP Address') out.ip.push(v);
    else if (k === 'URI') out.uri.push(v);
  }
  return out;
}

function certObject(c: X509Certificate): Value {
  let extra: Record<string, Value> = {};
  try {
    extra = certificateExtras(c.raw);
  } catch {
    extra = {};
  }
  const s = sans(c.subjectAltName);
  const pk = c.publicKey;
  const alg = pk.asymmetricKeyType;
  const pkAlg = alg === 'rsa' ? 1 : alg === 'dsa' ? 2 : alg === 'ec' ? 3 : alg === 'ed25519' ? 4 : 0;
  let jwk: Value = null;
  try {
    jwk = pk.export({ format: 'jwk' }) as unknown as Value;
  } catch {
    jwk = null;
  }
  return makeObject([
    ['Raw', c.raw.toString('base64')],
    ['RawTBSCertificate', extra.RawTBSCertificate ?? null],
    ['RawSubjectPublicKeyInfo', extra.RawSubjectPublicKeyInfo ?? null],
    ['RawSubject', extra.RawSubject ?? null],
    ['RawIssuer', extra.RawIssuer ?? null],
    ['Signature', extra.Signature ?? null],
    ['SignatureAlgorithm', extra.SignatureAlgorithm ?? 0],
    ['Version', extra.Version ?? 3],
    ['SerialNumber', extra.SerialNumber ?? N.normalize(BigInt('0x' + c.serialNumber))],
    ['Issuer', extra.Issuer ?? pkixName(c.issuer)],
    ['Subject', extra.Subject ?? pkixName(c.subject)],
    ['KeyUsage', extra.KeyUsage ?? 0],
    ['Extensions', extra.Extensions ?? null],
    ['SubjectKeyId', extra.SubjectKeyId ?? null],
    ['AuthorityKeyId', extra.AuthorityKeyId ?? null],
    ['MaxPathLen', extra.MaxPathLen ?? -1],
    ['MaxPathLenZero', extra.MaxPathLenZero ?? false],
    ['NotBefore', rfc3339(c.validFrom)],
    ['NotAfter', rfc3339(c.validTo)],
    ['PublicKeyAlgorithm', pkAlg],
    ['PublicKey', jwk],
    ['IsCA', c.ca],
    ['BasicConstraintsValid', c.ca],
    ['DNSNames', s.dns.length ? s.dns : null],
    ['EmailAddresses', s.email.length ? s.email : null],
    ['IPAddresses', s.ip.length ? s.ip : null],
    ['URIs', s.uri.length ? s.uri.map((u) => urlObject(u)) : null],
    ['URIStrings', s.uri.length ? s.uri : null],
    ['ExtKeyUsage', c.keyUsage ? c.keyUsage.map(extKeyUsage) : null],
  ]);
}

/** Go's x509.ExtKeyUsage numbering for the common OIDs. */
function extKeyUsage(oid: string): Value {
  const table: Record<string, number> = {
    '2.5.29.37.0': 0,
    '1.3.6.1.5.5.7.3.1': 1,
    '1.3.6.1.5.5.7.3.2': 2,
    '1.3.6.1.5.5.7.3.3': 3,
    '1.3.6.1.5.5.7.3.4': 4,
    '1.3.6.1.5.5.7.3.5': 5,
    '1.3.6.1.5.5.7.3.6': 6,
    '1.3.6.1.5.5.7.3.7': 7,
    '1.3.6.1.5.5.7.3.8': 8,
    '1.3.6.1.5.5.7.3.9': 9,
  };
  return table[oid] ?? oid;
}

function urlObject(u: string): Value {
  try {
    const x = new URL(u);
    return makeObject([
      ['Scheme', x.protocol.replace(/:$/, '')],
      ['Host', x.host],
      ['Path', decodeURIComponent(x.pathname)],
      ['RawQuery', x.search.replace(/^\?/, '')],
      ['Fragment', x.hash.replace(/^#/, '')],
    ]);
  } catch {
    return makeObject([['Path', u]]);
  }
}

function parseCerts(input: string): X509Certificate[] {
  const bs = blocks(input).filter((b) => b.type === 'CERTIFICATE' || b.type === 'DER');
  if (bs.length === 0) throw new BuiltinError('x509: malformed certificate');
  return bs.map((b) => {
    try {
      return new X509Certificate(b.der);
    } catch (e) {
      throw new BuiltinError(`x509: malformed certificate: ${(e as Error).message}`);
    }
  });
}

/** Chain check: certs[0] is the root, the last is the leaf; each is issued and signed by its predecessor. */
function verifyChain(certs: X509Certificate[], nowMs: number): boolean {
  if (certs.length < 2) return false;
  for (let i = 0; i < certs.length; i++) {
    const c = certs[i];
    if (nowMs < new Date(c.validFrom).getTime() || nowMs > new Date(c.validTo).getTime()) return false;
    const issuer = i === 0 ? c : certs[i - 1];
    if (i > 0 && !issuer.ca) return false;
    if (!c.checkIssued(issuer) || !c.verify(issuer.publicKey)) return false;
  }
  return true;
}

function keyJWK(k: KeyObject): Value {
  return k.export({ format: 'jwk' }) as unknown as Value;
}

function privateKeys(input: string): KeyObject[] {
  const out: KeyObject[] = [];
  for (const b of blocks(input)) {
    if (!/PRIVATE KEY/.test(b.type) && b.type !== 'DER') continue;
    try {
      const format = 'der';
      const type = b.type === 'RSA PRIVATE KEY' ? 'pkcs1' : b.type === 'EC PRIVATE KEY' ? 'sec1' : 'pkcs8';
      out.push(createPrivateKey({ key: b.der, format, type }));
    } catch (e) {
      throw new BuiltinError(`failed to parse private key: ${(e as Error).message}`);
    }
  }
  return out;
}

export const X509: Record<string, BuiltinImpl> = {
  'crypto.x509.parse_certificates': (args) => parseCerts(str(args, 0)).map(certObject),
  'crypto.x509.parse_and_verify_certificates': (args, ctx: BuiltinContext) => {
    let certs: X509Certificate[];
    try {
      certs = parseCerts(str(args, 0));
    } catch {
      return [false, []];
    }
    const ok = verifyChain(certs, Number(ctx.nowNs / 1_000_000n));
    return ok ? [true, certs.map(certObject)] : [false, []];
  },
  'crypto.x509.parse_and_verify_certificates_with_options': (args, ctx) => {
    const opts = obj(args, 1);
    let certs: X509Certificate[];
    try {
      certs = parseCerts(str(args, 0));
    } catch {
      return [false, []];
    }
    const t = objGet(opts, 'CurrentTime');
    const nowMs = N.isNumOrBig(t) ? N.toFloat(t) / 1e6 : Number(ctx.nowNs / 1_000_000n);
    const ok = verifyChain(certs, nowMs);
    return ok ? [true, certs.map(certObject)] : [false, []];
  },
  'crypto.x509.parse_certificate_request': (args) => {
    const b = blocks(str(args, 0)).find((x) => x.type === 'CERTIFICATE REQUEST' || x.type === 'NEW CERTIFICATE REQUEST' || x.type === 'DER');
    if (!b) throw new BuiltinError('invalid PEM-encoded certificate signing request');
    try {
      return certificateRequest(b.der);
    } catch (e) {
      throw new BuiltinError(`x509: malformed certificate request: ${(e as Error).message}`);
    }
  },
  'crypto.x509.parse_rsa_private_key': (args) => {
    const keys = privateKeys(str(args, 0));
    const rsa = keys.find((k) => k.asymmetricKeyType === 'rsa');
    if (!rsa) throw new BuiltinError('failed to parse RSA private key');
    return keyJWK(rsa);
  },
  'crypto.parse_private_keys': (args) => {
    const s = str(args, 0);
    if (s === '') return [];
    return privateKeys(s).map(keyJWK);
  },
  'crypto.x509.parse_keypair': (args) => {
    const certs = parseCerts(str(args, 0));
    const keys = privateKeys(str(args, 1));
    if (keys.length === 0) throw new BuiltinError('tls: failed to find any PEM data in key input');
    const pub = certs[0].publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
    const priv = keys[0].export({ format: 'jwk' }) as Record<string, unknown>;
    if ((pub.n ?? pub.x) !== (priv.n ?? priv.x)) throw new BuiltinError('tls: private key does not match public key');
    return makeObject([
      ['Certificate', certs.map((c) => c.raw.toString('base64'))],
      ['PrivateKey', keyJWK(keys[0])],
      ['Leaf', certObject(certs[0])],
    ]);
  },
};


