import { generateKeyPairSync } from 'crypto';
import { call, callRaw, testContext } from './spec-helpers';
import { Value } from '../value';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed = generateKeyPairSync('ed25519');
const rsaPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }) as string;
const jwk = (k: typeof rsa.privateKey) => k.export({ format: 'jwk' }) as unknown as Value;

describe('io.jwt', () => {
  const hs = call('io.jwt.encode_sign', { alg: 'HS256', typ: 'JWT' }, { sub: 'x', exp: 2000000000 }, { kty: 'oct', k: 'c2VjcmV0' }) as string;

  it('signs and verifies HMAC tokens', () => {
    expect(hs.split('.')).toHaveLength(3);
    expect(call('io.jwt.verify_hs256', hs, 'secret')).toBe(true);
    expect(call('io.jwt.verify_hs256', hs, 'wrong')).toBe(false);
    const [header, payload, sig] = call('io.jwt.decode', hs) as Value[];
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toEqual({ sub: 'x', exp: 2000000000 });
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
  });

  it('verifies RSA, RSA-PSS, ECDSA and EdDSA with PEM keys and JWK sets', () => {
    const rs = call('io.jwt.encode_sign', { alg: 'RS256' }, { a: 1 }, jwk(rsa.privateKey)) as string;
    expect(call('io.jwt.verify_rs256', rs, rsaPem)).toBe(true);
    const pub = rsa.publicKey.export({ format: 'jwk' });
    expect(call('io.jwt.verify_rs256', rs, JSON.stringify({ keys: [pub] }))).toBe(true);
    expect(call('io.jwt.verify_rs384', rs, rsaPem)).toBe(false);
    const ps = call('io.jwt.encode_sign', { alg: 'PS512' }, { a: 1 }, jwk(rsa.privateKey)) as string;
    expect(call('io.jwt.verify_ps512', ps, rsaPem)).toBe(true);
    const es = call('io.jwt.encode_sign', { alg: 'ES256' }, { a: 1 }, jwk(ec.privateKey)) as string;
    expect(call('io.jwt.verify_es256', es, JSON.stringify(ec.publicKey.export({ format: 'jwk' })))).toBe(true);
    const eddsa = call('io.jwt.encode_sign_raw', '{"alg":"EdDSA"}', '{"a":1}', JSON.stringify(jwk(ed.privateKey))) as string;
    expect(call('io.jwt.verify_eddsa', eddsa, ed.publicKey.export({ type: 'spki', format: 'pem' }) as string)).toBe(true);
  });

  it('decodes and verifies with constraints', () => {
    const at = (ns: bigint) => testContext({ nowNs: ns });
    expect(callRaw('io.jwt.decode_verify', [hs, { secret: 'secret' }], at(1000000000000000000n))).toEqual([
      true,
      { alg: 'HS256', typ: 'JWT' },
      { sub: 'x', exp: 2000000000 },
    ]);
    // expired, wrong alg, wrong key, aud mismatch
    expect(callRaw('io.jwt.decode_verify', [hs, { secret: 'secret' }], at(3000000000000000000n))).toEqual([false, {}, {}]);
    expect(callRaw('io.jwt.decode_verify', [hs, { secret: 'secret', alg: 'HS512' }], at(0n))).toEqual([false, {}, {}]);
    expect(callRaw('io.jwt.decode_verify', [hs, { secret: 'nope' }], at(0n))).toEqual([false, {}, {}]);
    expect(callRaw('io.jwt.decode_verify', [hs, { secret: 'secret', aud: 'x' }], at(0n))).toEqual([false, {}, {}]);
    expect(() => callRaw('io.jwt.decode_verify', [hs, {}], at(0n))).toThrow('no key specified');
  });

  it('rejects malformed tokens', () => {
    expect(() => call('io.jwt.decode', 'abc')).toThrow();
    expect(() => call('io.jwt.verify_hs256', 'a.b.c', 'x')).toThrow('illegal base64url string');
  });
});
