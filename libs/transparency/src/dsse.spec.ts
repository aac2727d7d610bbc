import { createHash, generateKeyPairSync, verify } from 'node:crypto';
import { IN_TOTO_PAYLOAD_TYPE, pae, signEnvelope, verifyEnvelope } from './dsse';
import { canonicalJson } from './jcs';
import { noteSigner, parseVerifierKey, formatVerifierKey } from './note';
import { buildLogEntry, buildVsaStatement, formatRecordedAt, recordedAtFromEpochMicros, signStatement } from './statement';

const sha256hex = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('RFC 8785 canonical JSON', () => {
  it('serializes the RFC 8785 section 3.2.2 example exactly', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        '"string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
  });

  it('orders members by UTF-16 code units (RFC 8785 section 3.2.3)', () => {
    const input = { '\u20ac': 1, '\r': 2, '\ufb33': 3, '1': 4, '\ud83d\ude00': 5, '\u0080': 6, '\u00f6': 7 };
    expect(canonicalJson(input).indexOf('\\r')).toBe(2);
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'].map((k) => canonicalJson(input).indexOf(JSON.stringify(k)));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('refuses values JSON cannot hold instead of dropping them', () => {
    expect(() => canonicalJson({ a: undefined })).toThrow();
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
    expect(() => canonicalJson(undefined)).toThrow();
  });
});

describe('DSSE v1', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const signer = noteSigner('veritrail.example', privateKey);

  it('builds PAE as in the DSSE protocol example', () => {
    expect(pae('http://example.com/HelloWorld', Buffer.from('hello world')).toString('utf8')).toBe('DSSEv1 29 http://example.com/HelloWorld 11 hello world');
    // LEN counts bytes, not characters.
    expect(pae('t', Buffer.from('é')).toString('utf8')).toBe('DSSEv1 1 t 2 é');
  });

  it('signs an envelope that node:crypto verifies over the PAE bytes written out here', () => {
    const payload = '{"hello":"world"}';
    const env = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(payload), [signer]);
    expect(env.payloadType).toBe('application/vnd.in-toto+json');
    expect(Buffer.from(env.payload, 'base64').toString('utf8')).toBe(payload);
    expect(env.signatures).toHaveLength(1);
    expect(env.signatures[0].keyid).toMatch(/^[0-9a-f]{8}$/);
    expect(env.signatures[0].keyid).toBe(formatVerifierKey(signer).split('+')[1]);
    const message = Buffer.from('DSSEv1 28 application/vnd.in-toto+json 17 {"hello":"world"}', 'utf8');
    expect(verify(null, message, publicKey, Buffer.from(env.signatures[0].sig, 'base64'))).toBe(true);
    expect(verify(null, Buffer.from('DSSEv1 28 application/vnd.in-toto+json 17 {"hello":"World"}'), publicKey, Buffer.from(env.signatures[0].sig, 'base64'))).toBe(false);
  });

  it('verifies with a known key and rejects a changed payload or type', () => {
    const key = parseVerifierKey(formatVerifierKey(signer));
    const env = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from('{}'), [signer]);
    expect(verifyEnvelope(env, [key]).payload.toString()).toBe('{}');
    expect(() => verifyEnvelope({ ...env, payload: Buffer.from('{ }').toString('base64') }, [key])).toThrow('invalid signature');
    expect(() => verifyEnvelope({ ...env, payloadType: 'text/plain' }, [key])).toThrow('invalid signature');
    const other = noteSigner('other', generateKeyPairSync('ed25519').privateKey);
    expect(() => verifyEnvelope(env, [other])).toThrow('no signature by a known key');
  });
});

describe('log entry leaves', () => {
  it('writes the canonical leaf object with record_sha256 of the record canonical JSON', () => {
    const record = { name: 'unit-tests', attestation_id: 'a1', is_compliant: true, type: 'generic' };
    const entry = buildLogEntry({
      kind: 'attestation',
      org: 'acme',
      id: 'a1',
      recordedAt: '2026-11-27T00:37:21.123456Z',
      record,
      locators: { flow: 'web', trail: 'main-42', fingerprint: 'f'.repeat(64), moment: 3 },
    });
    const recordSha = sha256hex('{"attestation_id":"a1","is_compliant":true,"name":"unit-tests","type":"generic"}');
    const expected =
      `{"fingerprint":"${'f'.repeat(64)}","flow":"web","id":"a1","kind":"attestation","moment":3,"org":"acme",` +
      `"record_sha256":"${recordSha}","recorded_at":"2026-11-27T00:37:21.123456Z","trail":"main-42","v":1}`;
    expect(entry.leaf).toBe(expected);
    expect(entry.leafHash.toString('hex')).toBe(sha256hex(Buffer.concat([Buffer.from([0]), Buffer.from(expected, 'utf8')])));
  });

  it('writes recorded_at as RFC 3339 UTC with exactly six fraction digits', () => {
    expect(formatRecordedAt(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05.678000Z');
    expect(recordedAtFromEpochMicros(1767323045678901n)).toBe('2026-01-02T03:04:05.678901Z');
    expect(() => formatRecordedAt('2026-01-02T03:04:05Z')).toThrow();
    expect(() => formatRecordedAt('2026-01-02T03:04:05.678901+01:00')).toThrow();
  });

  it('refuses unknown locators and a missing or doubled record digest', () => {
    const base = { kind: 'trail', org: 'acme', id: 't', recordedAt: new Date(0) };
    expect(() => buildLogEntry({ ...base, record: {}, locators: { colour: 'x' } as never })).toThrow('unknown locator');
    expect(() => buildLogEntry(base)).toThrow();
    expect(() => buildLogEntry({ ...base, record: {}, recordSha256: 'a'.repeat(64) })).toThrow();
    expect(() => buildLogEntry({ ...base, recordSha256: 'A'.repeat(64) })).toThrow();
  });
});

describe('signed decision statements (in-toto Statement v1, SLSA VSA v1)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const signer = noteSigner('veritrail.example', privateKey);
  const trailInput = { name: 'main-42', compliance_status: { is_compliant: true }, attestations_statuses: [] };
  const input = {
    verifierId: 'https://veritrail.example',
    veritrailVersion: '0.1.0',
    regoVersion: '1.2.3',
    timeVerified: new Date('2026-11-27T00:00:00.000Z'),
    evaluationUrl: 'https://veritrail.example/api/v2/evaluations/acme/e1',
    policySha256: 'b'.repeat(64),
    trails: [{ org: 'acme', flow: 'web', trail: 'main-42', moment: 7, input: trailInput }],
    artifacts: [{ name: 'web:1.0', fingerprint: 'c'.repeat(64) }],
    inputAttestations: [{ uri: 'https://veritrail.example/api/v2/attestations/acme?attestation_id=a1', recordSha256: 'd'.repeat(64) }],
    allowed: true,
    controlId: 'C-7',
  };

  it('builds the statement the contract describes', () => {
    const st = buildVsaStatement(input);
    expect(st).toEqual({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [
        { name: 'acme/web/main-42@7', digest: { sha256: sha256hex(canonicalJson(trailInput)) } },
        { name: 'web:1.0', digest: { sha256: 'c'.repeat(64) } },
      ],
      predicateType: 'https://slsa.dev/verification_summary/v1',
      predicate: {
        verifier: { id: 'https://veritrail.example', version: { veritrail: '0.1.0', rego: '1.2.3' } },
        timeVerified: '2026-11-27T00:00:00.000Z',
        resourceUri: 'https://veritrail.example/api/v2/evaluations/acme/e1',
        policy: { uri: 'https://veritrail.example/api/v2/evaluations/acme/e1#policy', digest: { sha256: 'b'.repeat(64) } },
        inputAttestations: [{ uri: 'https://veritrail.example/api/v2/attestations/acme?attestation_id=a1', digest: { sha256: 'd'.repeat(64) } }],
        verificationResult: 'PASSED',
        verifiedLevels: ['VERITRAIL_CONTROL_C-7'],
      },
    });
    const denied = buildVsaStatement({ ...input, allowed: false, controlId: undefined });
    expect(denied.predicate.verificationResult).toBe('FAILED');
    expect(denied.predicate.verifiedLevels).toEqual([]);
    // The trail subject's digest is over canonical bytes: member order in the input does not matter.
    const reordered = buildVsaStatement({ ...input, trails: [{ ...input.trails[0], input: { attestations_statuses: [], compliance_status: { is_compliant: true }, name: 'main-42' } }] });
    expect(reordered.subject[0].digest.sha256).toBe(sha256hex('{"attestations_statuses":[],"compliance_status":{"is_compliant":true},"name":"main-42"}'));
  });

  it('signs it as a canonical DSSE envelope whose bytes node:crypto verifies and whose SHA-256 is the record digest', () => {
    const signed = signStatement(buildVsaStatement(input), [signer]);
    const served = JSON.parse(signed.canonical);
    expect(Object.keys(served)).toEqual(['payload', 'payloadType', 'signatures']);
    expect(signed.sha256).toBe(sha256hex(Buffer.from(signed.canonical, 'utf8')));
    const payload = Buffer.from(served.payload, 'base64');
    expect(payload.toString('utf8')).toBe(canonicalJson(buildVsaStatement(input)));
    const message = Buffer.concat([Buffer.from(`DSSEv1 28 application/vnd.in-toto+json ${payload.length} `), payload]);
    expect(verify(null, message, publicKey, Buffer.from(served.signatures[0].sig, 'base64'))).toBe(true);
  });
});
