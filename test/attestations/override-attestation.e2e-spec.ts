import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { FP, postGeneric, reportArtifact } from '../support/attestation-helpers';

describe('overrides (POST .../override)', () => {
  let t: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    org = await createOrg(t);
  });

  const override = (flow: string, trail: string, body: unknown) =>
    t.http().post(`/api/v2/attestations/${org.name}/${flow}/trail/${trail}/override`).set(...bearer(org.adminKey)).send(body as object);
  const getTrail = async (flow: string, trail: string) => (await t.http().get(`/api/v2/trails/${org.name}/${flow}/${trail}`).set(...bearer(org.adminKey)).expect(200)).body;
  const versions = async (flow: string, trail: string, slot: string) =>
    (await t.http().get(`/api/v2/attestations/${org.name}/${flow}/trail/${trail}/${slot}`).set(...bearer(org.adminKey)).expect(200)).body;

  it('overrides a slot: the trail counts the new verdict, the overridden attestation stays, and is pointed to', async () => {
    const flow = uniqueName('flow');
    await postGeneric(t, org.adminKey, org.name, flow, 't', { attestation_name: 'manual-check', is_compliant: false, description: 'failed review' }).expect(201);
    await postGeneric(t, org.adminKey, org.name, flow, 't', { attestation_name: 'other', is_compliant: true }).expect(201);
    const before = await getTrail(flow, 't');
    expect(before.compliance_status.is_compliant).toBe(false);
    const originalId = before.compliance_status.attestations_statuses.find((s: any) => s.attestation_name === 'manual-check').attestation_id;

    const res = await override(flow, 't', {
      attestation_name: 'manual-check',
      reason: 'approved out-of-band by the security lead',
      new_compliance_status: true,
      original_attestation_type: 'generic',
      origin_url: 'https://tickets.example.com/SEC-1',
      description: 'override after review',
    });
    expect(res.status).toBe(201);
    expect(typeof res.body).toBe('string');

    const after = await getTrail(flow, 't');
    expect(after.compliance_status.is_compliant).toBe(true);
    const slot = after.compliance_status.attestations_statuses.find((s: any) => s.attestation_name === 'manual-check');
    expect(slot).toMatchObject({ attestation_type: 'override', is_compliant: true, overridden_attestation_id: originalId });
    expect(slot.attestation_id).not.toBe(originalId);
    const untouched = after.compliance_status.attestations_statuses.find((s: any) => s.attestation_name === 'other');
    expect(untouched.overridden_attestation_id).toBeNull();

    // Both stay readable, newest first: the override (who, why) and the original, unchanged.
    const slotVersions = await versions(flow, 't', 'manual-check');
    expect(slotVersions.map((v: any) => [v.attestation_type, v.is_compliant])).toEqual([
      ['override', true],
      ['generic', false],
    ]);
    expect(slotVersions[0]).toMatchObject({
      reported_by: org.adminEmail,
      reason: 'approved out-of-band by the security lead',
      overridden_attestation_id: originalId,
      original_attestation_type: 'generic',
      origin_url: 'https://tickets.example.com/SEC-1',
    });
    expect(slotVersions[1]).toMatchObject({ attestation_id: originalId, description: 'failed review' });

    // Overriding again points at the original evidence, not at the previous override.
    await override(flow, 't', { attestation_name: 'manual-check', reason: 'revoked', new_compliance_status: false, original_attestation_type: 'generic' }).expect(201);
    const again = await getTrail(flow, 't');
    expect(again.compliance_status.is_compliant).toBe(false);
    expect(again.compliance_status.attestations_statuses.find((s: any) => s.attestation_name === 'manual-check').overridden_attestation_id).toBe(originalId);
  });

  it("overrides an artifact's slot by fingerprint", async () => {
    const flow = uniqueName('flow');
    const fp = FP('a');
    await reportArtifact(t, org.adminKey, org.name, flow, 't', fp, 'web');
    await postGeneric(t, org.adminKey, org.name, flow, 't', { attestation_name: 'scan', is_compliant: false, artifact_fingerprint: fp }).expect(201);
    await override(flow, 't', { attestation_name: 'scan', artifact_fingerprint: fp, reason: 'false positive', new_compliance_status: true, original_attestation_type: 'generic' }).expect(201);
    const scan = await versions(flow, 't', 'web.scan');
    expect(scan.map((v: any) => v.attestation_type)).toEqual(['override', 'generic']);
    expect(scan[0]).toMatchObject({ artifact_name: 'web', artifact_fingerprint: fp, is_compliant: true, overridden_attestation_id: scan[1].attestation_id });
  });

  it('404 for a slot with nothing to override, 400 for a wrong type or a bad body; nothing is written', async () => {
    const flow = uniqueName('flow');
    await postGeneric(t, org.adminKey, org.name, flow, 't', { attestation_name: 'check', is_compliant: false }).expect(201);
    const body = { attestation_name: 'check', reason: 'r', new_compliance_status: true, original_attestation_type: 'generic' };
    const missingSlot = await override(flow, 't', { ...body, attestation_name: 'nothing' });
    expect(missingSlot.status).toBe(404);
    expect(missingSlot.body.message).toBe(`Attestation 'nothing' not found in trail 't' of flow '${flow}'`);
    await override(flow, 'no-trail', body).expect(404);
    await override(uniqueName('flow'), 't', body).expect(404);
    await override(flow, 't', { ...body, artifact_fingerprint: FP('b') }).expect(404);

    const wrongType = await override(flow, 't', { ...body, original_attestation_type: 'junit' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors).toEqual({ original_attestation_type: "attestation 'check' is of type 'generic', not 'junit'" });
    const bad = await override(flow, 't', { attestation_name: 'check', new_compliance_status: 'yes', original_attestation_type: 'bogus type' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['new_compliance_status', 'original_attestation_type', 'reason']);

    expect((await versions(flow, 't', 'check')).map((v: any) => v.attestation_type)).toEqual(['generic']);
  });
});
