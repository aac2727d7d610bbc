import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { evidenceClient, fingerprint, TEMPLATE } from '../support/trail-helpers';

describe('trail moments', () => {
  let t: TestApp;
  let org: TestOrg;
  let c: ReturnType<typeof evidenceClient>;
  /** created_at of moments 1..4 of app/m1, as the API reports them */
  const createdAt: number[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t, { features: ['trail_moments'] });
    c = evidenceClient(t, org);
    await c.createFlow('app', TEMPLATE).expect(201);
    await c.beginTrail('app', { name: 'm1' }).expect(201); // 1
    await c.attest('app', 'm1', { attestation_name: 'pull-request', is_compliant: true, description: 'PR 7' }).expect(201); // 2
    await c.reportArtifact('app', { fingerprint: fingerprint('a'), filename: 'web:1', trail_name: 'm1', template_reference_name: 'backend' }).expect(201); // 3
    await c.attest('app', 'm1', { attestation_name: 'unit-test', is_compliant: false, artifact_fingerprint: fingerprint('a') }).expect(201); // 4
    for (let n = 1; n <= 4; n++) createdAt.push((await c.moment('app', 'm1', String(n)).expect(200)).body.created_at);
  });
  afterAll(async () => {
    await t.close();
  });

  const momentNumber = async (expression: string) => {
    const res = await c.moment('app', 'm1', expression);
    expect({ expression, status: res.status }).toEqual({ expression, status: 200 });
    return res.body.moment_number;
  };

  it('moment 1 has every expected slot MISSING; each change adds the next moment', async () => {
    const m1 = (await c.moment('app', 'm1', '1').expect(200)).body;
    const trail = (await c.getTrail('app', 'm1').expect(200)).body;
    expect(m1).toEqual({
      moment_number: 1,
      created_at: createdAt[0],
      template_id: trail.template_id,
      compliance_status: {
        'pull-request': {
          attestation_id: null,
          attestation_name: 'pull-request',
          attestation_type: 'generic',
          artifact_name: null,
          artifact_fingerprint: null,
          status: 'MISSING',
          is_compliant: null,
          unexpected: false,
        },
        'backend.unit-test': {
          attestation_id: null,
          attestation_name: 'unit-test',
          attestation_type: 'generic',
          artifact_name: 'backend',
          artifact_fingerprint: null,
          status: 'MISSING',
          is_compliant: null,
          unexpected: false,
        },
      },
    });
    expect(trail.last_moment).toBe(4);
    expect(createdAt).toEqual([...createdAt].sort());
  });

  it('a slot carries the fields of its stored attestation plus status, is_compliant and unexpected', async () => {
    const m2 = (await c.moment('app', 'm1', '#2').expect(200)).body;
    expect(m2.moment_number).toBe(2);
    expect(m2.compliance_status['pull-request']).toMatchObject({
      attestation_name: 'pull-request',
      attestation_type: 'generic',
      description: 'PR 7',
      is_compliant: true,
      status: 'COMPLETE',
      unexpected: false,
      has_audit_package: false,
      reported_by: org.adminEmail,
      moment_number: 2,
    });
    expect(m2.compliance_status['pull-request'].attestation_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(m2.compliance_status['backend.unit-test'].status).toBe('MISSING');

    const m3 = (await c.moment('app', 'm1', '3').expect(200)).body;
    expect(m3.compliance_status['backend.unit-test']).toMatchObject({ status: 'MISSING', artifact_fingerprint: fingerprint('a') });
    const m4 = (await c.moment('app', 'm1', '4').expect(200)).body;
    expect(m4.compliance_status['backend.unit-test']).toMatchObject({
      status: 'COMPLETE',
      is_compliant: false,
      artifact_fingerprint: fingerprint('a'),
      artifact_name: 'backend',
      unexpected: false,
    });
  });

  it('takes expressions raw or URL-encoded', async () => {
    const raw = async (path: string) =>
      (await t.http().get(`/api/v2/trails/${org.name}/app/m1/moments/${path}`).set(...bearer(org.adminKey)).expect(200)).body.moment_number;
    expect(await raw('@{now}')).toBe(4);
    expect(await raw('~1')).toBe(3);
    expect(await raw('%232')).toBe(2);
    expect(await raw('%40%7Bnow%7D')).toBe(4);
  });

  it('resolves numbers and counts from the latest', async () => {
    expect(await momentNumber('4')).toBe(4);
    expect(await momentNumber('#1')).toBe(1);
    expect(await momentNumber('latest')).toBe(4);
    expect(await momentNumber('-1')).toBe(4);
    expect(await momentNumber('-4')).toBe(1);
    expect(await momentNumber('~0')).toBe(4);
    expect(await momentNumber('~3')).toBe(1);
  });

  it('resolves instants: now, Unix seconds, RFC 3339, naive UTC date-times (exact to the microsecond)', async () => {
    expect(await momentNumber('@{now}')).toBe(4);
    expect(await momentNumber(`@{${createdAt[1]}}`)).toBe(2);
    const justBefore = (createdAt[1] * 1e6 - 1) / 1e6;
    expect(await momentNumber(`@{${justBefore.toFixed(6)}}`)).toBe(1);
    const iso = (seconds: number, offsetHours = 0) => {
      const micros = Math.round(seconds * 1e6);
      const shifted = new Date(Math.floor(micros / 1000) + offsetHours * 3600_000).toISOString().slice(0, 19);
      return `${shifted}.${String(micros % 1_000_000).padStart(6, '0')}`;
    };
    expect(await momentNumber(`@{${iso(createdAt[2])}Z}`)).toBe(3);
    expect(await momentNumber(`@{${iso(createdAt[2])}}`)).toBe(3);
    expect(await momentNumber(`@{${iso(createdAt[2], 2)}+02:00}`)).toBe(3);
    expect(await momentNumber(`@{${iso(createdAt[2], -5)}-05:00}`)).toBe(3);
    expect(await momentNumber('@{2999-01-01T00:00:00Z}')).toBe(4);
  });

  it('resolves N.<unit>.ago against when moments were recorded', async () => {
    await c.beginTrail('app', { name: 'old' }).expect(201); // 1
    await c.attest('app', 'old', { attestation_name: 'pull-request', is_compliant: true }).expect(201); // 2
    await c.attest('app', 'old', { attestation_name: 'pull-request', is_compliant: false }).expect(201); // 3
    // Backdated behind the service's back (moments are append-only: the trigger is bypassed as a superuser can).
    await t.dataSource.transaction(async (m) => {
      await m.query(`SET LOCAL session_replication_role = replica`);
      await m.query(
        `UPDATE trail_moments SET created_at = now() - CASE moment_number WHEN 1 THEN interval '40 days' ELSE interval '2 days' END
         WHERE moment_number < 3 AND trail_id = (SELECT t.id FROM trails t JOIN flows f ON f.id = t.flow_id
           WHERE f.org_id = (SELECT id FROM organizations WHERE name = $1) AND t.name = 'old')`,
        [org.name],
      );
    });
    const at = async (expression: string) => (await c.moment('app', 'old', expression)).body.moment_number;
    expect(await at('@{1.hour.ago}')).toBe(2);
    expect(await at('@{1.day.ago}')).toBe(2);
    expect(await at('@{3.days.ago}')).toBe(1);
    expect(await at('@{1.week.ago}')).toBe(1);
    expect(await at('@{1.month.ago}')).toBe(1);
    expect(await at('@{30.seconds.ago}')).toBe(2);
    expect(await at('@{5.minutes.ago}')).toBe(2);
    const none = await c.moment('app', 'old', '@{2.months.ago}').expect(404);
    expect(none.body.message).toBe("Moment '@{2.months.ago}' not found in trail 'old' of flow 'app'");
    // the moment two days back still shows the compliant attestation: moments are immutable
    const m2 = (await c.moment('app', 'old', '@{1.day.ago}')).body;
    expect(m2.compliance_status['pull-request']).toMatchObject({ status: 'COMPLETE', is_compliant: true });
    expect((await c.moment('app', 'old', 'latest')).body.compliance_status['pull-request'].is_compliant).toBe(false);
  });

  it('latest follows new writes; an earlier moment read before a write reads the same after it', async () => {
    await c.beginTrail('app', { name: 'live' }).expect(201);
    const first = (await c.moment('app', 'live', 'latest').expect(200)).body;
    expect(first.moment_number).toBe(1);
    await c.attest('app', 'live', { attestation_name: 'pull-request', is_compliant: true }).expect(201);
    const second = (await c.moment('app', 'live', 'latest').expect(200)).body;
    expect(second.moment_number).toBe(2);
    expect(second.compliance_status['pull-request'].status).toBe('COMPLETE');
    expect((await c.moment('app', 'live', '1').expect(200)).body).toEqual(first);
  });

  it('400 for a malformed expression, with errors.moment_expression', async () => {
    for (const expression of ['abc', '0', '-0', '1.5', '@{tomorrow}', '@{2026-02-30T00:00:00Z}', '@{1.fortnight.ago}', '#x']) {
      const res = await c.moment('app', 'm1', expression);
      expect({ expression, status: res.status }).toEqual({ expression, status: 400 });
      expect(res.body.message).toBe('Input payload validation failed');
      expect(Object.keys(res.body.errors)).toEqual(['moment_expression']);
    }
  });

  it('404 when the expression resolves to nothing, or the flow or trail does not exist', async () => {
    for (const expression of ['5', '-5', '~4', '@{1000000000}', '@{2001-01-01T00:00:00Z}', '99999999999']) {
      const res = await c.moment('app', 'm1', expression);
      expect({ expression, status: res.status }).toEqual({ expression, status: 404 });
      expect(res.body.message).toContain(`Moment '${expression}' not found`);
    }
    const trail = await c.moment('app', 'nope', '1').expect(404);
    expect(trail.body).toEqual({ message: "Trail 'nope' not found in flow 'app'", errors: null });
    const flow = await c.moment('nope', 'm1', '1').expect(404);
    expect(flow.body).toEqual({ message: "Flow 'nope' not found", errors: null });
  });

  it('409 when two slots share a key', async () => {
    await c
      .createFlow('dup', 'version: 1\ntrail:\n  attestations:\n    - name: tests\n      type: generic\n    - name: tests\n      type: junit\n')
      .expect(201);
    await c.beginTrail('dup', { name: 'd1' }).expect(201);
    const res = await c.moment('dup', 'd1', 'latest').expect(409);
    expect(res.body.message).toMatch(/share the attestation name 'tests'/);
    // GET trail still shows it (an array of slots has no key to clash on)
    const trail = await c.getTrail('dup', 'd1').expect(200);
    expect(trail.body.compliance_status.attestations_statuses).toHaveLength(2);
  });

  it('untemplated trails: template_id null, every slot unexpected', async () => {
    await c.attest('free', 'f1', { attestation_name: 'tests', is_compliant: true }).expect(201);
    const m = (await c.moment('free', 'f1', 'latest').expect(200)).body;
    expect(m.moment_number).toBe(2);
    expect(m.template_id).toBeNull();
    expect(m.compliance_status).toEqual({ tests: expect.objectContaining({ status: 'COMPLETE', is_compliant: true, unexpected: true }) });
    expect((await c.moment('free', 'f1', '1').expect(200)).body.compliance_status).toEqual({});
  });

  it('a template change is a moment; earlier moments keep the template they were evaluated against', async () => {
    await c.createFlow('tc', TEMPLATE).expect(201);
    await c.beginTrail('tc', { name: 'x' }).expect(201);
    await c.beginTrail('tc', { name: 'x' }, 'version: 1\ntrail:\n  attestations:\n    - name: other\n      type: generic\n').expect(200);
    const [m1, m2] = [(await c.moment('tc', 'x', '1')).body, (await c.moment('tc', 'x', '2')).body];
    expect(m1.template_id).not.toBe(m2.template_id);
    expect(Object.keys(m1.compliance_status).sort()).toEqual(['backend.unit-test', 'pull-request']);
    expect(Object.keys(m2.compliance_status)).toEqual(['other']);
  });

  it('403 without the trail_moments beta flag, before the expression is validated', async () => {
    const plain = await createOrg(t);
    const res = await t.http().get(`/api/v2/trails/${plain.name}/app/m1/moments/abc`).set(...bearer(plain.adminKey)).expect(403);
    expect(res.body.message).toContain('trail_moments');
  });
});
