import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LogSigner } from '../../src/modules/evidence-log/evidence-log.module';
import { postGeneric } from '../support/attestation-helpers';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { ALLOW_IF_UNIT_PASSES, evaluate } from '../support/evaluation-helpers';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

describe('audit PDF', () => {
  let t: TestApp;
  let org: TestOrg;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp({ LOG_ORIGIN: 'log.example.test', LOG_CHECKPOINT_INTERVAL_MS: '3600000' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-pdf-'));
    org = await createOrg(t, { features: ['evaluations'] });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('renders the trail, its compliance and why, attestations with evidence digests, decisions and the checkpoint', async () => {
    await t.http().put(`/api/v2/flows/${org.name}`).set(...bearer(org.adminKey)).send({ name: 'app' }).expect(201);
    await t.http().put(`/api/v2/trails/${org.name}/app`).set(...bearer(org.adminKey)).field('data_json', JSON.stringify({ name: 'release-7' })).expect(201);
    const report = Buffer.from('42 tests, 0 failures\n');
    await postGeneric(t, org.adminKey, org.name, 'app', 'release-7', { attestation_name: 'unit', is_compliant: true }, { content: report, filename: 'unit.txt' }).expect(201);
    await postGeneric(t, org.adminKey, org.name, 'app', 'release-7', { attestation_name: 'security-review', is_compliant: false }).expect(201);
    const created = await evaluate(t, org, {
      context: { trails: [{ flow: 'app', trail: 'release-7' }] },
      policy: { files: { 'policy.rego': ALLOW_IF_UNIT_PASSES } },
    }).expect(201);
    const evaluation = await waitFor(async () => {
      const got = await t.http().get(`/api/v2/evaluations/${org.name}/${created.body.id}`).set(...bearer(org.adminKey));
      return got.body.status === 'completed' && got.body;
    }, { what: 'evaluation completed' });
    await t.app.get(LogSigner, { strict: false }).signDue();
    const list = await t.http().get(`/api/v2/attestations/${org.name}/app`).set(...bearer(org.adminKey)).expect(200);
    const unit = list.body.data.find((a: any) => a.attestation_name === 'unit');
    const lookup = await t.http().get(`/api/v2/log/${org.name}/lookup`).query({ kind: 'attestation', id: unit.attestation_id }).set(...bearer(org.adminKey)).expect(200);

    const res = await t
      .http()
      .get(`/api/v2/trails/${org.name}/app/release-7/audit_pdf`)
      .set(...bearer(org.adminKey))
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const file = path.join(dir, 'report.pdf');
    fs.writeFileSync(file, res.body as Buffer);

    // Pages render (poppler), and the text reads back.
    execFileSync('pdftoppm', ['-png', '-r', '40', file, path.join(dir, 'page')]);
    const pages = fs.readdirSync(dir).filter((f) => f.startsWith('page') && f.endsWith('.png'));
    expect(pages.length).toBeGreaterThanOrEqual(1);
    expect(pages.every((p) => fs.statSync(path.join(dir, p)).size > 1000)).toBe(true);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ');

    expect(text).toContain(`Organization ${org.name}, flow app, trail release-7`);
    expect(text).toContain('Compliance: NOT COMPLIANT');
    expect(text).toMatch(/security-review \(generic\): COMPLETE, NOT compliant/);
    expect(text).toMatch(/unit - generic, compliant/);
    expect(text).toContain(`SHA-256 ${createHash('sha256').update(report).digest('hex')}`);
    expect(text).toContain(`Evaluation ${evaluation.id}`);
    expect(text).toContain(`Policy bundle digest ${evaluation.verification.policy_digest}`);
    expect(text).toContain(`leaf ${lookup.body.index}, hash ${Buffer.from(lookup.body.leaf_hash, 'base64').toString('hex')}`);
    expect(text).toContain(`log.example.test/${org.name}`);
  });

  it('is 404 for an unknown trail, and another org cannot read it', async () => {
    await t.http().get(`/api/v2/trails/${org.name}/app/no-such-trail/audit_pdf`).set(...bearer(org.adminKey)).expect(404);
    const other = await createOrg(t);
    await t.http().get(`/api/v2/trails/${org.name}/app/release-7/audit_pdf`).set(...bearer(other.adminKey)).expect(403);
  });
});
