import { createHash, createPublicKey, verify } from 'node:crypto';
import canonicalize from 'canonicalize';
import { FP, postGeneric, reportArtifact } from '../support/attestation-helpers';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { createControl, evaluate, evaluationWorld } from '../support/evaluation-helpers';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
/** RFC 8785 through the package directly (not the service's own wrapper). */
const jcs = (v: unknown) => canonicalize(v) as string;

/** DSSE PAE, written out here from the DSSE v1 spec: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body. */
function pae(type: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`DSSEv1 ${Buffer.byteLength(type)} ${type} ${body.length} `), body]);
}

/** A policy whose result shows the trail element it saw, so the test can hash exactly what the policy was given. */
const ECHO_POLICY = `package policy

import rego.v1

default allow := false

allow if input.trail.compliance_status.attestations_statuses.unit.is_compliant

violations contains "unit tests did not pass" if not allow

seen := input.trail
`;

describe('signed decisions (DSSE, in-toto Statement v1, SLSA VSA v1)', () => {
  let t: TestApp;
  let org: TestOrg;
  const base = 'https://veritrail.example.test';

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: base, LOG_ORIGIN: 'log.example.test' });
    org = await evaluationWorld(t);
    await createControl(t, org, 'C-SIGN');
    await reportArtifact(t, org.adminKey, org.name, 'app', 't1', FP('a'), 'image');
    await postGeneric(t, org.adminKey, org.name, 'app', 't1', { attestation_name: 'lint', is_compliant: true }).expect(201);
  });
  afterAll(() => t.close());

  async function activeKey() {
    const res = await t.http().get('/api/v2/log/keys').expect(200);
    return res.body.keys.find((k: any) => k.active) as { key_id: string; public_key: string };
  }

  async function completed(body: unknown): Promise<any> {
    const res = await evaluate(t, org, body).expect(201);
    return waitFor(
      async () => {
        const got = await t.http().get(`/api/v2/evaluations/${org.name}/${res.body.id}`).set(...bearer(org.adminKey)).expect(200);
        return got.body.status !== 'pending' && got.body;
      },
      { what: 'evaluation finished' },
    );
  }

  it('signs a completed evaluation with the log key over the exact PAE bytes, and logs the envelope bytes', async () => {
    const evaluation = await completed({
      context: { trails: [{ flow: 'app', trail: 't1' }] },
      policy: { files: { 'policy.rego': ECHO_POLICY } },
      decision: { control: 'C-SIGN', name: 'gate', flow: 'app', trail: 't1', fingerprint: FP('a') },
    });
    expect(evaluation.status).toBe('completed');
    const res = await t.http().get(`/api/v2/evaluations/${org.name}/${evaluation.id}/attestation`).set(...bearer(org.adminKey)).expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const envelope = JSON.parse(res.text);
    // Served as its RFC 8785 canonical JSON, byte for byte.
    expect(res.text).toBe(jcs(envelope));
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');

    const key = await activeKey();
    expect(envelope.signatures).toHaveLength(1);
    expect(envelope.signatures[0].keyid).toBe(key.key_id);
    const publicKey = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(key.public_key, 'base64')]), format: 'der', type: 'spki' });
    const payload = Buffer.from(envelope.payload, 'base64');
    const signature = Buffer.from(envelope.signatures[0].sig, 'base64');
    expect(verify(null, pae(envelope.payloadType, payload), publicKey, signature)).toBe(true);
    // A changed payload byte does not verify (the check can fail).
    const tampered = Buffer.from(payload);
    tampered[10] ^= 1;
    expect(verify(null, pae(envelope.payloadType, tampered), publicKey, signature)).toBe(false);

    const statement = JSON.parse(payload.toString('utf8'));
    expect(payload.toString('utf8')).toBe(jcs(statement));
    expect(statement._type).toBe('https://in-toto.io/Statement/v1');
    expect(statement.predicateType).toBe('https://slsa.dev/verification_summary/v1');

    // Subjects: the trail at its moment, digested over the element of the policy input; and the decision's artifact.
    const seen = evaluation.result.seen;
    const moment = evaluation.verification.trails[0].moment_number;
    expect(statement.subject).toEqual([
      { name: `${org.name}/app/t1@${moment}`, digest: { sha256: sha256(jcs(seen)) } },
      { name: 'image', digest: { sha256: FP('a') } },
    ]);

    const url = `${base}/api/v2/evaluations/${org.name}/${evaluation.id}`;
    const p = statement.predicate;
    expect(p.verifier.id).toBe(base);
    expect(Object.keys(p.verifier.version).sort()).toEqual(['rego', 'veritrail']);
    expect(p.verifier.version.rego).toBe(evaluation.verification.engine_version);
    expect(p.resourceUri).toBe(url);
    expect(p.policy).toEqual({ uri: `${url}#policy`, digest: { sha256: evaluation.verification.policy_digest.replace('sha256:', '') } });
    expect(p.verificationResult).toBe('PASSED');
    expect(p.verifiedLevels).toEqual(['VERITRAIL_CONTROL_C-SIGN']);
    // timeVerified is the evaluation's instant (recorded_at, exact to the microsecond).
    const [whole, fraction = ''] = String(evaluation.verification.recorded_at).split('.');
    const micros = (fraction + '000000').slice(0, 6);
    expect(p.timeVerified).toBe(new Date(Number(whole) * 1000).toISOString().replace('.000Z', `.${micros}Z`));

    // inputAttestations: every attestation the input held, with the SHA-256 of its read shape recomputed here.
    const ids = ['unit', 'lint'].map((n) => seen.compliance_status.attestations_statuses[n].attestation_id as string);
    const expected = [];
    for (const id of ids) {
      const read = await t.http().get(`/api/v2/attestations/${org.name}`).query({ attestation_id: id }).set(...bearer(org.adminKey)).expect(200);
      expected.push({ uri: `${base}/api/v2/attestations/${org.name}?attestation_id=${id}`, digest: { sha256: sha256(jcs(read.body.data[0])) } });
    }
    expect([...p.inputAttestations].sort((a: any, b: any) => a.uri.localeCompare(b.uri))).toEqual(expected.sort((a, b) => a.uri.localeCompare(b.uri)));

    // The evaluation's log entry: record_sha256 is the SHA-256 of the bytes served.
    const entry = await t.http().get(`/api/v2/log/${org.name}/lookup`).query({ kind: 'evaluation', id: evaluation.id }).set(...bearer(org.adminKey)).expect(200);
    const leaf = JSON.parse(entry.body.leaf);
    expect(leaf).toMatchObject({ v: 1, kind: 'evaluation', org: org.name, id: evaluation.id, record_sha256: sha256(res.text) });
  });

  it('says FAILED when the policy did not allow, and signs evaluations without a decision too', async () => {
    await postGeneric(t, org.adminKey, org.name, 'app', 't1', { attestation_name: 'unit', is_compliant: false }).expect(201);
    const evaluation = await completed({ context: { trails: [{ flow: 'app', trail: 't1' }] }, policy: { files: { 'policy.rego': ECHO_POLICY } } });
    expect(evaluation.status).toBe('completed');
    const res = await t.http().get(`/api/v2/evaluations/${org.name}/${evaluation.id}/attestation`).set(...bearer(org.adminKey)).expect(200);
    const statement = JSON.parse(Buffer.from(JSON.parse(res.text).payload, 'base64').toString('utf8'));
    expect(statement.predicate.verificationResult).toBe('FAILED');
    expect(statement.predicate.verifiedLevels).toEqual([]);
    expect(statement.subject).toHaveLength(1);
  });

  it('answers 404 naming why for a failed evaluation, and hides one org\'s envelopes from another', async () => {
    const failed = await completed({ context: { trails: [{ flow: 'app', trail: 't1' }] }, policy: { files: { 'policy.rego': 'package policy\n\nallow := \n' } } });
    expect(failed.status).toBe('failed');
    const res = await t.http().get(`/api/v2/evaluations/${org.name}/${failed.id}/attestation`).set(...bearer(org.adminKey)).expect(404);
    expect(res.body.message).toContain(failed.error.kind);
    expect(res.body.message).toMatch(/failed/);
    const lookup = await t.http().get(`/api/v2/log/${org.name}/lookup`).query({ kind: 'evaluation', id: failed.id }).set(...bearer(org.adminKey));
    expect(lookup.status).toBe(404);

    const ok = await completed({ context: { trails: [{ flow: 'app', trail: 't1' }] }, policy: { files: { 'policy.rego': ECHO_POLICY } } });
    const other = await createOrg(t, { features: ['evaluations'] });
    await t.http().get(`/api/v2/evaluations/${other.name}/${ok.id}/attestation`).set(...bearer(other.adminKey)).expect(404);
    await t.http().get(`/api/v2/evaluations/${org.name}/${ok.id}/attestation`).set(...bearer(other.adminKey)).expect(403);
  });
});
