import { generateKeyPairSync, createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { CspReports } from '../../src/modules/web-ui/web-ui.module';
import { addMember, bearer, createOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { launchBrowser, screenshot, seriousA11yViolations } from './browser';
import { SeededOrg, seedOrg, XSS } from './seed';

// Evaluated in the page, where these exist.
declare const window: any;
declare const document: any;
declare const localStorage: any;
declare const sessionStorage: any;

jest.setTimeout(240_000);

/**
 * The web interface in a real browser (the distribution's headless Chromium driven by playwright-core), against
 * the real app and PostgreSQL: the journeys of issue 26, its security rules (session cookie, CSRF, CSP, escaping)
 * and an accessibility check (axe-core) on every page visited.
 */
describe('web interface (/ui) in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let world: SeededOrg;
  const a11y: Record<string, unknown[]> = {};

  beforeAll(async () => {
    t = await startTestApp({ LOG_CHECKPOINT_INTERVAL_MS: '200' });
    browser = await launchBrowser();
    world = await seedOrg(t);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const url = (p: string) => `${t.baseUrl}${p}`;

  async function signIn(context: BrowserContext, org: string, key: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(url(`/ui/`));
    await page.getByLabel('Organization').fill(org);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: `Overview of ${org}` }).waitFor();
    return page;
  }

  /** Loads a page of the interface and waits until it has rendered (or shown its error). */
  async function visit(page: Page, p: string): Promise<void> {
    await page.goto(url(p));
    await page.locator('main[data-ready="true"]').waitFor();
  }

  async function checkA11y(page: Page, name: string): Promise<void> {
    a11y[name] = await seriousA11yViolations(page);
  }

  it('serves the page with a strict CSP, content-hashed assets cached for a year, and no inline script', async () => {
    const res = await t.http().get('/ui/o/anything/flows').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers['content-security-policy']).toContain('report-uri /ui/csp-report');
    expect(res.text).not.toMatch(/<script>|<script [^>]*>[^<]/);
    const script = /src="(\/ui\/assets\/app-[A-Z0-9]+\.js)"/.exec(res.text)![1];
    const asset = await t.http().get(script).expect(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    // The first page: document + script + style, well under 300 KB.
    const css = /href="(\/ui\/assets\/style-[A-Z0-9]+\.css)"/.exec(res.text)![1];
    const total = res.text.length + asset.text.length + (await t.http().get(css).expect(200)).text.length;
    expect(total).toBeLessThan(300 * 1024);
    await t.http().get('/ui/assets/app-NOPE.js').expect(404);
  });

  it('signs in with an API key for an HttpOnly, SameSite=Strict session the page cannot read, and signs out', async () => {
    const context = await browser.newContext();
    const page = await signIn(context, world.org.name, world.org.adminKey);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'vt_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: false });
    expect(session.expires).toBeGreaterThan(Date.now() / 1000);
    expect(await page.evaluate(() => document.cookie)).not.toContain('vt_session');
    expect(await page.evaluate(() => JSON.stringify(localStorage) + JSON.stringify(sessionStorage))).not.toContain(world.org.adminKey);
    expect(page.url()).not.toContain(world.org.adminKey);
    await checkA11y(page, 'overview');
    await screenshot(page, 'overview');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Veritrail' }).waitFor();
    await checkA11y(page, 'sign-in');
    // The old cookie is dead even if someone kept it.
    const res = await t.http().get('/api/v2/session').set('Cookie', `vt_session=${session.value}`);
    expect(res.status).toBe(401);
    await context.close();
  });

  it('refuses a wrong key, and a sign-in or a write without the anti-forgery header', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url('/ui/'));
    await page.getByLabel('Organization').fill(world.org.name);
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Invalid, expired or revoked API key').waitFor();
    // Another site's form cannot repeat the vt_csrf cookie in a header: sign-in without it is refused.
    const forged = await page.evaluate(async (key) => (await fetch('/api/v2/session', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ api_key: key }) })).status, world.org.adminKey);
    expect(forged).toBe(403);
    await context.close();

    const signed = await browser.newContext();
    const p2 = await signIn(signed, world.org.name, world.org.adminKey);
    const replay = `/api/v2/evaluations/${world.org.name}/${world.evaluationId}/replay`;
    expect(await p2.evaluate(async (u) => (await fetch(u, { method: 'POST' })).status, replay)).toBe(403);
    expect(await p2.evaluate(async (u) => (await fetch(u, { method: 'POST', headers: { 'x-csrf-token': 'wrong' } })).status, replay)).toBe(403);
    await signed.close();
  });

  it('flow -> trail -> attestation -> evidence download; the trail as of a past moment; the template', async () => {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await signIn(context, world.org.name, world.org.adminKey);
    await page.getByRole('link', { name: world.flow, exact: true }).first().click();
    await page.getByRole('heading', { name: `Flow ${world.flow}` }).waitFor();
    await checkA11y(page, 'flow');
    await screenshot(page, 'flow');
    await page.getByRole('region', { name: 'Trails' }).getByRole('link', { name: world.trail, exact: true }).click();
    await page.getByRole('heading', { name: /Trail t1/ }).waitFor();
    const timeline = page.getByTestId('timeline');
    await timeline.getByRole('heading', { name: /pull-request/ }).waitFor();
    await timeline.getByRole('heading', { name: /unit-test/ }).waitFor();
    // Compliance and why: the failing artifact attestation is named.
    expect(await page.getByRole('table').first().innerText()).toMatch(/unit-test[\s\S]*reported, failing/);
    expect(await page.getByTestId('trail-template').innerText()).toContain('pull-request');
    await checkA11y(page, 'trail');
    await screenshot(page, 'trail');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('evidence-download').click()]);
    expect(download.suggestedFilename()).toBe('evidence.txt');
    expect(fs.readFileSync((await download.path())!, 'utf8')).toBe('evidence file ');

    await page.getByRole('textbox', { name: /As of/ }).fill('1');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByTestId('moment').getByRole('heading', { name: /As of moment 1/ }).waitFor();
    expect(page.url()).toMatch(/[?&]as_of=1$/);
    // The URL is shareable: opened afresh it shows the same moment.
    await visit(page, new URL(page.url()).pathname + new URL(page.url()).search);
    await page.getByTestId('moment').getByRole('heading', { name: /As of moment 1/ }).waitFor();
    // At moment 1 only the trail existed: every slot of the template is missing.
    expect(await page.getByTestId('moment').innerText()).not.toMatch(/COMPLETE/);
    await page.getByRole('textbox', { name: /As of/ }).fill('latest');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByTestId('moment').getByRole('heading', { name: /As of moment ([5-9]|\d{2,}) / }).waitFor();
    expect(await page.getByTestId('moment').innerText()).toMatch(/pull-request\s+COMPLETE/);
    await context.close();
  });

  it("filters a flow's attestations by time, as the API does, with the filter in the URL", async () => {
    const context = await browser.newContext();
    const page = await signIn(context, world.org.name, world.org.adminKey);
    await visit(page, `/ui/o/${world.org.name}/flows/${world.flow}`);
    const region = page.getByRole('region', { name: 'Attestations' });
    // Every attestation of the flow, newest first (the evaluation's decision last of all).
    await region.getByRole('table').waitFor();
    expect(await region.locator('tbody tr td:first-child').allInnerTexts()).toEqual(['change-approved', 'unit', 'unit-test', 'pull-request']);
    // Until a moment between the first two reported: only the first (the time in the URL, as Unix seconds).
    const list = await t.http().get(`/api/v2/attestations/${world.org.name}/${world.flow}`).set(...bearer(world.org.adminKey)).expect(200);
    const at = (name: string) => list.body.data.find((a: any) => a.attestation_name === name).created_at as number;
    await page.getByLabel('Reported until').fill(String((at('pull-request') + at('unit-test')) / 2));
    await page.getByRole('button', { name: 'Filter attestations' }).click();
    await page.waitForURL(/[?&]to=\d/);
    await page.locator('main[data-ready="true"]').waitFor();
    await region.getByRole('table').waitFor();
    expect(await region.locator('tbody tr td:first-child').allInnerTexts()).toEqual(['pull-request']);
    await page.getByLabel('Reported until').fill('');
    await page.getByLabel('Reported from (ISO 8601 or Unix seconds)').fill('2999-01-01T00:00:00Z');
    await page.getByRole('button', { name: 'Filter attestations' }).click();
    await page.waitForURL(/[?&]from=2999-01-01T00%3A00%3A00Z/);
    await page.locator('main[data-ready="true"]').waitFor();
    await region.getByText('Nothing here.').waitFor();
    await page.getByLabel('Reported from (ISO 8601 or Unix seconds)').fill('2000-01-01T00:00:00Z');
    await page.getByLabel('Reported until').fill('last tuesday');
    await page.getByRole('button', { name: 'Filter attestations' }).click();
    await region.getByText('A time must be ISO 8601').waitFor();
    await page.getByLabel('Reported until').fill('');
    await page.getByRole('button', { name: 'Filter attestations' }).click();
    await page.locator('main[data-ready="true"]').waitFor();
    await region.getByRole('table').waitFor();
    expect(await region.locator('tbody tr').count()).toBe(4);
    await checkA11y(page, 'flow-attestations');
    await context.close();
  });

  it('offers audit packages on the trail, artifact and evidence-log pages; the download is a gzip file', async () => {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await signIn(context, world.org.name, world.org.adminKey);
    const { org, flow, trail, fp } = { org: world.org.name, flow: world.flow, trail: world.trail, fp: world.fp };
    await visit(page, `/ui/o/${org}/flows/${flow}/trails/${trail}`);
    expect(await page.getByTestId('audit-pdf').getAttribute('href')).toBe(`/api/v2/trails/${org}/${flow}/${trail}/audit_pdf`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-package').click()]);
    expect(download.suggestedFilename()).toBe(`${org}-${flow}-${trail}-audit-package.tar.gz`);
    const bytes = fs.readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    // A tar archive inside: its first header names a file, and the ustar magic sits at offset 257.
    expect(gunzipSync(bytes).subarray(257, 262).toString('latin1')).toBe('ustar');

    await visit(page, `/ui/o/${org}/artifacts/${flow}/${fp}`);
    expect(await page.getByTestId('audit-package').getAttribute('href')).toBe(`/api/v2/artifacts/${org}/${flow}/${fp}/audit_package`);
    const [artifactPackage] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-package').click()]);
    expect([...fs.readFileSync((await artifactPackage.path())!).subarray(0, 2)]).toEqual([0x1f, 0x8b]);

    const list = await t.http().get(`/api/v2/attestations/${org}/${flow}`).set(...bearer(world.org.adminKey)).expect(200);
    const id = list.body.data.find((a: any) => a.attestation_name === 'pull-request').attestation_id;
    await visit(page, `/ui/o/${org}/log?kind=attestation&id=${id}`);
    expect(await page.getByTestId('lookup-audit-package').getAttribute('href')).toBe(`/api/v2/trails/${org}/${flow}/${trail}/audit_package`);
    await checkA11y(page, 'log-record');
    await context.close();
  });

  it("shows an artifact's gate answer per environment, and the diff of two snapshots chosen on the page", async () => {
    const context = await browser.newContext();
    const page = await signIn(context, world.org.name, world.org.adminKey);
    // An environment without policies beside prod (whose policy asks for provenance only): there the flows decide,
    // and the artifact's trail is not compliant (a failing unit test).
    await t.http().put(`/api/v2/environments/${world.org.name}`).set(...bearer(world.org.adminKey)).send({ name: 'staging', type: 'K8S', description: '' }).expect(201);
    const gateRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v2/asserts/')) gateRequests.push(new URL(r.url()).pathname);
    });
    await visit(page, `/ui/o/${world.org.name}/artifacts/${world.flow}/${world.fp}`);
    const gate = page.getByRole('table', { name: /What the gate/ });
    await gate.getByRole('link', { name: 'prod' }).waitFor();
    const rows = (await gate.locator('tbody tr').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
    expect(rows).toEqual([
      expect.stringMatching(/^prod allowed prod-requirements v1 \(none\)$/),
      `staging refused its flows (no policy attached) trail '${world.trail}' of flow '${world.flow}' is NON-COMPLIANT`,
    ]);
    // One request for the answers of every environment, not one per environment.
    expect(gateRequests).toEqual([`/api/v2/asserts/${world.org.name}/fingerprint/${world.fp}/environments`]);
    // The other journeys count the seed's one environment.
    await t.http().put(`/api/v2/environments/${world.org.name}/staging/archive`).set(...bearer(world.org.adminKey)).expect(200);
    await checkA11y(page, 'artifact');
    await screenshot(page, 'artifact');

    await visit(page, `/ui/o/${world.org.name}/environments/prod`);
    await page.getByLabel('From snapshot').fill('1');
    await page.getByLabel('To snapshot').fill('2');
    await page.getByRole('button', { name: 'Compare' }).click();
    const diff = page.getByTestId('diff');
    await diff.waitFor();
    expect(await diff.innerText()).toContain('d'.repeat(64));
    expect(page.url()).toMatch(/\?a=1&b=2$/);
    // The attached policy, exactly as stored.
    expect(await page.getByTestId('policy-yaml').textContent()).toBe(world.policy);
    expect(await page.getByRole('table').last().innerText()).toMatch(/started/);
    await checkA11y(page, 'environment');
    await screenshot(page, 'environment');
    await visit(page, `/ui/o/${world.org.name}/environments/prod/snapshots/2`);
    expect(await page.locator('main').innerText()).toContain(world.fp);
    await checkA11y(page, 'snapshot');
    await screenshot(page, 'snapshot');
    await context.close();
  });

  it('replays an evaluation and says it was identical, showing the policy files it ran', async () => {
    const context = await browser.newContext();
    const page = await signIn(context, world.org.name, world.org.adminKey);
    await visit(page, `/ui/o/${world.org.name}/evaluations`);
    await checkA11y(page, 'evaluations');
    await visit(page, `/ui/o/${world.org.name}/evaluations/${world.evaluationId}`);
    await page.getByRole('button', { name: 'Replay' }).click();
    await page.getByTestId('replay-verdict').waitFor();
    expect(await page.getByTestId('replay-verdict').innerText()).toBe('Replay identical');
    expect(await page.getByTestId('policy-file').allTextContents()).toEqual([world.rego]);
    expect(await page.locator('main').innerText()).toContain(`sha256 ${createHash('sha256').update(world.rego).digest('hex')}`);
    await checkA11y(page, 'evaluation');
    await screenshot(page, 'evaluation');
    await visit(page, `/ui/o/${world.org.name}/controls`);
    // The control's decision: the evaluation that decided on it, and the trail it covered.
    const control = page.getByRole('region', { name: /SOC2-CC8/ });
    await control.getByRole('link', { name: world.evaluationId }).waitFor();
    expect(await control.innerText()).toContain(`${world.flow}/${world.trail}@`);
    // Coverage from the coverage route: the seed's one environment has a policy, but not one requiring the control.
    expect(await control.getByTestId('control-coverage').innerText()).toBe('0 of 1 environments enforce it (0%)');
    expect(await control.getByRole('row', { name: /prod/ }).innerText()).toMatch(/prod\s+K8S\s+no/);
    await checkA11y(page, 'controls');
    await context.close();
  });

  it('verifies a record in the browser against the pinned key, and fails when the key or the proof is wrong', async () => {
    const context = await browser.newContext();
    const page = await signIn(context, world.org.name, world.org.adminKey);
    const list = await t.http().get(`/api/v2/attestations/${world.org.name}/${world.flow}`).set(...bearer(world.org.adminKey)).expect(200);
    const id = list.body.data.find((a: any) => a.attestation_name === 'pull-request').attestation_id;
    const { keys } = (await t.http().get('/api/v2/log/keys').expect(200)).body;
    const vkey: string = keys.find((k: any) => k.active).vkey;
    // Wait until the record is integrated and a signed checkpoint covers it.
    const entry = await waitFor(async () => {
      const r = await t.http().get(`/api/v2/log/${world.org.name}/lookup?kind=attestation&id=${id}`).set(...bearer(world.org.adminKey));
      if (r.status !== 200 || r.body.index === null) return undefined;
      const cp = await t.http().get(`/api/v2/log/${world.org.name}/checkpoint`).set(...bearer(world.org.adminKey));
      return Number(cp.text.split('\n')[1]) > r.body.index ? r.body : undefined;
    }, { timeoutMs: 30_000, what: 'the attestation covered by a signed checkpoint' });

    const pin = async (key: string) => {
      await visit(page, `/ui/o/${world.org.name}/log?kind=attestation&id=${id}`);
      await page.getByLabel(/Pinned log key/).fill(key);
      await page.getByRole('button', { name: 'Pin this key' }).click();
    };
    const verdict = async () => {
      await page.locator('#verify-record').click();
      const v = page.locator('#lookup-verdict [data-testid="verdict"]');
      await v.waitFor();
      return v.innerText();
    };

    await pin(vkey);
    expect(await page.locator('pre').nth(1).innerText()).toBe(entry.leaf);
    expect(await verdict()).toMatch(/^Verified in this browser/);
    await checkA11y(page, 'log');
    await screenshot(page, 'evidence-log');

    // Another Ed25519 key under the same name: the signature does not verify.
    const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    const name = vkey.split('+')[0];
    const id4 = createHash('sha256').update(Buffer.concat([Buffer.from(name), Buffer.from([0x0a, 0x01]), other])).digest().subarray(0, 4).toString('hex');
    await pin(`${name}+${id4}+${Buffer.concat([Buffer.from([1]), other]).toString('base64')}`);
    const wrongKey = await verdict();
    expect(wrongKey).toMatch(/^Verification FAILED/);
    expect(wrongKey).toMatch(/✘|checkpoint signed by the pinned key/);

    // The right key, but a tampered proof: one hash of the audit path changed on the way.
    await pin(vkey);
    await page.route('**/proof/inclusion*', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.audit_path = body.audit_path.length ? [Buffer.alloc(32, 7).toString('base64'), ...body.audit_path.slice(1)] : [Buffer.alloc(32, 7).toString('base64')];
      await route.fulfill({ response, json: body });
    });
    expect(await verdict()).toMatch(/^Verification FAILED/);
    await page.unroute('**/proof/inclusion*');
    expect(await verdict()).toMatch(/^Verified in this browser/);
    await context.close();
  });

  it('search by fingerprint, and the lists, pass the accessibility check', async () => {
    const context = await browser.newContext();
    const page = await signIn(context, world.org.name, world.org.adminKey);
    await visit(page, `/ui/o/${world.org.name}/search?q=${world.fp.slice(0, 12)}`);
    await page.getByRole('heading', { name: 'Results' }).waitFor();
    expect(await page.locator('main').innerText()).toContain(world.fp);
    await checkA11y(page, 'search');
    for (const p of ['flows', 'artifacts', 'environments', 'trails']) {
      await visit(page, `/ui/o/${world.org.name}/${p}`);
      await checkA11y(page, p);
    }
    // The org's trails filtered by an artifact's fingerprint, as the API filters them; the filter is in the URL.
    await page.getByLabel('Artifact fingerprint').fill(world.fp);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/fingerprint=a{64}/);
    await page.locator('main[data-ready="true"]').waitFor();
    await page.getByRole('link', { name: world.trail, exact: true }).waitFor();
    await page.getByLabel('Artifact fingerprint').fill('b'.repeat(64));
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('Nothing here.').waitFor();
    await context.close();
  });

  it("pages through a flow's artifacts and an environment's snapshots past the first 20, newest first", async () => {
    const flow = 'many-artifacts';
    const as = <T extends { set: (k: string, v: string) => T }>(req: T) => req.set(...bearer(world.org.adminKey));
    await as(t.http().put(`/api/v2/flows/${world.org.name}`)).send({ name: flow, description: '', visibility: 'private' }).expect(201);
    await as(t.http().put(`/api/v2/trails/${world.org.name}/${flow}`)).field('data_json', JSON.stringify({ name: 'r1' })).expect(201);
    const fingerprints = Array.from({ length: 21 }, (_, i) => createHash('sha256').update(`artifact-${i}`).digest('hex'));
    for (const [i, fingerprint] of fingerprints.entries()) {
      await as(t.http().post(`/api/v2/artifacts/${world.org.name}/${flow}`)).send({ fingerprint, filename: `build-${i}`, trail_name: 'r1', template_reference_name: 'app' }).expect(201);
    }
    const context = await browser.newContext();
    const page = await signIn(context, world.org.name, world.org.adminKey);
    await visit(page, `/ui/o/${world.org.name}/artifacts?flow=${flow}`);
    await page.getByRole('link', { name: fingerprints[20], exact: true }).waitFor();
    expect(await page.locator('main').innerText()).not.toContain(fingerprints[0]);
    await page.getByRole('link', { name: 'Next →' }).click();
    await page.waitForURL(/page=2/);
    await page.getByRole('link', { name: fingerprints[0], exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Next →' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: '← Previous' }).count()).toBe(1);

    // An environment's snapshot timeline, the same way (21 reports of different images: 21 snapshots).
    const as2 = (req: any) => req.set(...bearer(world.org.adminKey));
    await as2(t.http().put(`/api/v2/environments/${world.org.name}`)).send({ name: 'paged', type: 'server', description: '' }).expect(201);
    for (let i = 0; i < 21; i++) {
      await as2(t.http().put(`/api/v2/environments/${world.org.name}/paged/report/server`)).send({ artifacts: [{ digests: { [`app-${i}.tgz`]: fingerprints[i] }, creationTimestamp: 1700000000 }] }).expect(201);
    }
    await visit(page, `/ui/o/${world.org.name}/environments/paged`);
    await page.getByRole('link', { name: '#21', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: '#1', exact: true }).count()).toBe(0);
    await page.getByRole('link', { name: 'Next →' }).click();
    await page.waitForURL(/page=2/);
    await page.getByRole('link', { name: '#1', exact: true }).waitFor();
    await context.close();
  });

  it("a session acts with its key's role, exactly as the key would; an unknown cookie is no credential", async () => {
    const readerKey = await addMember(t, world.org.name, 'reader');
    const context = await browser.newContext();
    const page = await signIn(context, world.org.name, readerKey);
    const status = (u: string, method = 'GET') =>
      page.evaluate(
        async ([u, method]) => {
          const csrf = /(?:^|; )vt_csrf=([^;]*)/.exec(document.cookie)?.[1] ?? '';
          return (await fetch(u, { method, headers: { 'x-csrf-token': csrf } })).status;
        },
        [u, method] as const,
      );
    expect(await status(`/api/v2/flows/${world.org.name}`)).toBe(200);
    // Replay needs member: a reader's session gets the reader's 403, with the anti-forgery header right.
    expect(await status(`/api/v2/evaluations/${world.org.name}/${world.evaluationId}/replay`, 'POST')).toBe(403);
    await page.getByRole('link', { name: 'Evaluations' }).click();
    await page.getByRole('link', { name: world.evaluationId }).click();
    await page.getByRole('button', { name: 'Replay' }).click();
    await page.locator('#replay-result .error').waitFor();
    expect(await page.locator('#replay-result').innerText()).toMatch(/^403/);
    // Another org's data stays out of reach, as for the key.
    const other = await createOrg(t);
    expect(await status(`/api/v2/flows/${other.name}`)).toBe(403);
    await context.close();
    const forged = await t.http().get(`/api/v2/flows/${world.org.name}`).set('Cookie', 'vt_session=forged-token-value');
    expect(forged.status).toBe(401);
  });

  it("ends a session when its API key is revoked", async () => {
    const email = `ui-${Date.now()}@example.com`;
    const key = await addMember(t, world.org.name, 'admin', email);
    const context = await browser.newContext();
    const page = await signIn(context, world.org.name, key);
    const own = await t.http().get(`/api/v2/api-keys/${world.org.name}`).set(...bearer(key)).expect(200);
    await t.http().delete(`/api/v2/api-keys/${world.org.name}/${own.body[0].id}`).set(...bearer(key)).expect(200);
    expect(await page.evaluate(async () => (await fetch('/api/v2/session')).status)).toBe(401);
    await visit(page, `/ui/o/${world.org.name}/flows`);
    await page.getByRole('heading', { name: 'Sign in to Veritrail' }).waitFor();
    await context.close();
  });

  it('shows markup and script in names and values as text, and the CSP report endpoint records no violation', async () => {
    const hostile = await seedOrg(t, { hostile: true });
    const reports = t.app.get(CspReports, { strict: false });
    const before = reports.list().length;
    const context = await browser.newContext();
    const page = await signIn(context, hostile.org.name, hostile.org.adminKey);
    for (const p of ['', '/flows', `/flows/${hostile.flow}`, `/flows/${hostile.flow}/trails/${hostile.trail}`, '/environments', '/environments/prod', `/artifacts/${hostile.flow}/${hostile.fp}`]) {
      await visit(page, `/ui/o/${hostile.org.name}${p}`);
    }
    const text = await page.locator('main').innerText();
    expect(text).toContain('acme/web:1<img src=x onerror=');
    await visit(page, `/ui/o/${hostile.org.name}/environments/prod`);
    expect(await page.getByTestId('policy-yaml').textContent()).toBe(hostile.policy);
    await visit(page, `/ui/o/${hostile.org.name}/evaluations/${hostile.evaluationId}`);
    expect(await page.getByTestId('policy-file').textContent()).toBe(hostile.rego);
    expect(await page.locator('main img, main script').count()).toBe(0);
    await visit(page, `/ui/o/${hostile.org.name}/flows/${hostile.flow}/trails/${hostile.trail}`);
    const trailText = await page.locator('main').innerText();
    expect(trailText).toContain(`alice ${XSS}`);
    expect(trailText).toContain(`Reviewed ${XSS}`);
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    expect(await page.locator('main img, main script').count()).toBe(0);
    await screenshot(page, 'xss-trail');
    expect(reports.list().slice(before)).toEqual([]);

    // The endpoint does record what the policy blocks: an inline script injected into the page is reported.
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__xss = 3';
      document.body.appendChild(s);
    });
    await waitFor(() => reports.list().length > before, { what: 'a CSP report for the injected inline script' });
    expect(reports.list().slice(before)[0].violated_directive).toMatch(/script-src/);
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    await context.close();
  });

  it('has no serious or critical accessibility violation (axe-core) on any page visited above', () => {
    // One assertion over every page, so that a failure lists them all.
    expect(Object.keys(a11y).length).toBeGreaterThanOrEqual(15);
    expect(Object.fromEntries(Object.entries(a11y).filter(([, v]) => v.length))).toEqual({});
  });
});
