/** io.jwt.*: decoding, signature verification (HS/RS/PS/ES/EdDSA), decode_verify constraints, and signing. */
import {
  createHmac,
  createPublicKey,
  createPrivateKey,
  verify as cryptoVerify,
  sign as cryptoSign,
  timingSafeEqual,
  KeyObject,
  constants,
} from 'crypto';
import { Value, PlainObject, isObject, objGet, objEntries } from '../value';
import * as N from '../number';
import type { BuiltinImpl, BuiltinContext } from './contract';
import { BuiltinError } from './errors';
import { str, obj } from './operands';
import { base64urlDecodeLoose } from './encoding';
import { parseJSON, marshalJSON } from './json-text';
import { decodeUtf8Go } from './utf8';

interface Token {
  header: Value;
  payload: Value | undefined; // undefined when the payload is not JSON (e.g. a nested token)
  payloadText: string;
  headerText: string;
  signingInput: string;
  signature: Buffer;
}

function b64url(buf: Buffer | string): string {
  return Buffer.from(buf).toString('base64url');
}

function parseToken(jwt: string): Token {
  const parts = jwt.split('.');
  if (parts.length !== 3) throw new BuiltinError('encoded JWT had no period separators');
  const headerText = decodeUtf8Go(base64urlDecodeLoose(parts[0]));
  let header: Value;
  try {
    header = parseJSON(headerText);
  } catch {
    throw new BuiltinError('JWT header had invalid encoding');
  }
  if (!isObject(header)) throw new BuiltinError('JWT header had invalid encoding');
  const payloadText = decodeUtf8Go(base64urlDecodeLoose(parts[1]));
  let payload: Value | undefined;
  try {
    payload = parseJSON(payloadText);
  } catch {
    payload = undefined;
  }
  return {
    header,
    payload,
    payloadText,
    headerText,
    signingInput: parts[0] + '.' + parts[1],
    signature: base64urlDecodeLoose(parts[2]),
  };
}

/** io.jwt.decode: a token whose header says cty: JWT carries another token as payload; unwrap it. */
function decode(jwt: string, depth = 0): Value[] {
  const t = parseToken(jwt);
  const cty = objGet(t.header as PlainObject, 'cty');
  if (typeof cty === 'string' && cty.toUpperCase() === 'JWT' && depth < 10) return decode(t.payloadText, depth + 1);
  if (t.payload === undefined || !isObject(t.payload)) throw new BuiltinError('JWT payload had invalid encoding');
  return [t.header, t.payload, t.signature.toString('hex')];
}

/** Public keys from a PEM certificate, PEM public key, a JWK, or a JWK set (JSON text). */
function publicKeys(material: string): KeyObject[] {
  const text = material.trim();
  if (text.startsWith('{')) {
    let jwk: Value;
    try {
      jwk = parseJSON(text);
    } catch {
      throw new BuiltinError('failed to parse a JWK key (set)');
    }
    const keys = isObject(jwk) && Array.isArray(objGet(jwk, 'keys')) ? (objGet(jwk, 'keys') as Value[]) : [jwk];
    return keys.map((k) => {
      try {
        return createPublicKey({ key: JSON.parse(marshalJSON(k)), format: 'jwk' });
      } catch (e) {
        throw new BuiltinError(`failed to parse a JWK key: ${(e as Error).message}`);
      }
    });
  }
  try {
    return [createPublicKey(text)];
  } catch {
    throw new BuiltinError('failed to extract a Key from the PEM certificate');
  }
}

type Alg = { kind: 'hs' | 'rs' | 'ps' | 'es' | 'ed'; hash: string };

const ALGS: Record<string, Alg> = {
  HS256: { kind: 'hs', hash: 'sha256' },
  HS384: { kind: 'hs', hash: 'sha384' },
  HS512: { kind: 'hs', hash: 'sha512' },
  RS256: { kind: 'rs', hash: 'sha256' },
  RS384: { kind: 'rs', hash: 'sha384' },
  RS512: { kind: 'rs', hash: 'sha512' },
  PS256: { kind: 'ps', hash: 'sha256' },
  PS384: { kind: 'ps', hash: 'sha384' },
  PS512: { kind: 'ps', hash: 'sha512' },
  ES256: { kind: 'es', hash: 'sha256' },
  ES384: { kind: 'es', hash: 'sha384' },
  ES512: { kind: 'es', hash: 'sha512' },
  EdDSA: { kind: 'ed', hash: '' },
};

function verifySig(alg: Alg, input: string, sig: Buffer, keyMaterial: string): boolean {
  if (alg.kind === 'hs') {
    const mac = createHmac(alg.hash, Buffer.from(keyMaterial, 'utf8')).update(input).digest();
    return mac.length === sig.length && timingSafeEqual(mac, sig);
  }
  for (const key of publicKeys(keyMaterial)) {
    try {
      let ok: boolean;
      if (alg.kind === 'ed') ok = cryptoVerify(null, Buffer.from(input), key, sig);
      else if (alg.kind === 'es') ok = cryptoVerify(alg.hash, Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }, sig);
      else if (alg.kind === 'ps')
        ok = cryptoVerify(alg.hash, Buffer.from(input), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO }, sig);
      else ok = cryptoVerify(alg.hash, Buffer.from(input), key, sig);
      if (ok) return true;
    } catch {
      // wrong key type for this algorithm: try the next key
    }
  }
  return false;
}

function verifyWith(name: string): BuiltinImpl {
  const alg = ALGS[name];
  return (args) => {
    const t = parseToken(str(args, 0));
    return verifySig(alg, t.signingInput, t.signature, str(args, 1));
  };
}

function claimNumber(v: Value | undefined, claim: string): number | undefined {
  if (v === undefined) return undefined;
  if (!N.isNumOrBig(v)) throw new BuiltinError(`${claim} value must be a number`);
  return N.toFloat(v);
}

/** io.jwt.decode_verify: [valid, header, payload]; any failed check gives [false, {}, {}]. */
function decodeVerify(jwt: string, constraintsV: Value, ctx: BuiltinContext): Value {
  const c = constraintsV as PlainObject;
  let cert: string | undefined;
  let secret: string | undefined;
  let wantAlg: string | undefined;
  let iss: string | undefined;
  let aud: string | undefined;
  let timeNs: number | undefined;
  for (const [k, v] of objEntries(c)) {
    switch (k) {
      case 'cert':
        if (typeof v !== 'string') throw new BuiltinError('cert constraint: must be a string');
        cert = v;
        break;
      case 'secret':
        if (typeof v !== 'string') throw new BuiltinError('secret constraint: must be a string');
        secret = v;
        break;
      case 'alg':
        if (typeof v !== 'string') throw new BuiltinError('alg constraint: must be a string');
        wantAlg = v;
        break;
      case 'iss':
        if (typeof v !== 'string') throw new BuiltinError('iss constraint: must be a string');
        iss = v;
        break;
      case 'aud':
        if (typeof v !== 'string') throw new BuiltinError('aud constraint: must be a string');
        aud = v;
        break;
      case 'time':
        if (!N.isNumOrBig(v)) throw new BuiltinError('time constraint: must be a number');
        timeNs = N.toFloat(v);
        break;
      default:
        throw new BuiltinError(`unknown token validation constraint: ${k}`);
    }
  }
  if (cert === undefined && secret === undefined) throw new BuiltinError('no key specified');
  if (cert !== undefined && secret !== undefined) throw new BuiltinError('duplicate key constraints');
  const invalid: Value = [false, {}, {}];
  let t: Token;
  try {
    t = parseToken(jwt);
  } catch {
    return invalid;
  }
  const header = t.header as PlainObject;
  const algName = objGet(header, 'alg');
  if (typeof algName !== 'string' || !ALGS[algName]) return invalid;
  if (wantAlg !== undefined && wantAlg !== algName) return invalid;
  const alg = ALGS[algName];
  if ((alg.kind === 'hs') !== (secret !== undefined)) return invalid;
  try {
    if (!verifySig(alg, t.signingInput, t.signature, (secret ?? cert) as string)) return invalid;
  } catch {
    return invalid;
  }
  if (t.payload === undefined || !isObject(t.payload)) return invalid;
  const p = t.payload;
  // Compare in nanoseconds, as OPA does (exp/nbf are seconds, possibly fractional).
  const nowNs = timeNs ?? N.toFloat(N.normalize(ctx.nowNs));
  const exp = claimNumber(objGet(p, 'exp'), 'exp');
  if (exp !== undefined && nowNs >= exp * 1e9) return invalid;
  const nbf = claimNumber(objGet(p, 'nbf'), 'nbf');
  if (nbf !== undefined && nowNs < nbf * 1e9) return invalid;
  if (iss !== undefined && objGet(p, 'iss') !== iss) return invalid;
  const tokAud = objGet(p, 'aud');
  if (aud !== undefined) {
    if (tokAud === undefined) return invalid;
    const list = Array.isArray(tokAud) ? tokAud : [tokAud];
    if (!list.includes(aud)) return invalid;
  } else if (tokAud !== undefined) return invalid;
  return [true, t.header, t.payload];
}

/** Private (or symmetric) key from a JWK for signing. */
function signWith(alg: Alg, algName: string, input: string, jwk: Value): Buffer {
  if (!isObject(jwk)) throw new BuiltinError('invalid JWK');
  if (alg.kind === 'hs') {
    const k = objGet(jwk, 'k');
    if (typeof k !== 'string') throw new BuiltinError('JWK is missing the symmetric key "k"');
    return createHmac(alg.hash, Buffer.from(k, 'base64url')).update(input).digest();
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: JSON.parse(marshalJSON(jwk)), format: 'jwk' });
  } catch (e) {
    throw new BuiltinError(`failed to parse the signing key: ${(e as Error).message}`);
  }
  try {
    if (alg.kind === 'ed') return cryptoSign(null, Buffer.from(input), key);
    if (alg.kind === 'es') return cryptoSign(alg.hash, Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
    if (alg.kind === 'ps') return cryptoSign(alg.hash, Buffer.from(input), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST });
    return cryptoSign(alg.hash, Buffer.from(input), key);
  } catch (e) {
    throw new BuiltinError(`failed to sign with ${algName}: ${(e as Error).message}`);
  }
}

function encodeSign(headerText: string, payloadText: string, jwk: Value): string {
  let header: Value;
  try {
    header = parseJSON(headerText);
  } catch {
    throw new BuiltinError('invalid JWS header');
  }
  const algName = isObject(header) ? objGet(header, 'alg') : undefined;
  if (typeof algName !== 'string' || !ALGS[algName]) throw new BuiltinError(`unknown signature algorithm ${JSON.stringify(algName ?? '')}`);
  const input = b64url(headerText) + '.' + b64url(payloadText);
  const sig = signWith(ALGS[algName], algName, input, jwk);
  return input + '.' + b64url(sig);
}

export const JWT: Record<string, BuiltinImpl> = {
  'io.jwt.decode': (args) => decode(str(args, 0)),
  'io.jwt.decode_verify': (args, ctx) => decodeVerify(str(args, 0), obj(args, 1), ctx),
  'io.jwt.verify_hs256': verifyWith('HS256'),
  'io.jwt.verify_hs384': verifyWith('HS384'),
  'io.jwt.verify_hs512': verifyWith('HS512'),
  'io.jwt.verify_rs256': verifyWith('RS256'),
  'io.jwt.verify_rs384': verifyWith('RS384'),
  'io.jwt.verify_rs512': verifyWith('RS512'),
  'io.jwt.verify_ps256': verifyWith('PS256'),
  'io.jwt.verify_ps384': verifyWith('PS384'),
  'io.jwt.verify_ps512': verifyWith('PS512'),
  'io.jwt.verify_es256': verifyWith('ES256'),
  'io.jwt.verify_es384': verifyWith('ES384'),
  'io.jwt.verify_es512': verifyWith('ES512'),
  'io.jwt.verify_eddsa': verifyWith('EdDSA'),
  'io.jwt.encode_sign': (args) => {
    const h = obj(args, 0);
    const p = obj(args, 1);
    const k = obj(args, 2);
    return encodeSign(marshalJSON(h, undefined, '', false), marshalJSON(p, undefined, '', false), k);
  },
  'io.jwt.encode_sign_raw': (args) => {
    let key: Value;
    try {
      key = parseJSON(str(args, 2));
    } catch {
      throw new BuiltinError('invalid JWK');
    }
    return encodeSign(str(args, 0), str(args, 1), key);
  },
};


