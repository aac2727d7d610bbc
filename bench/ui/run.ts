/**
 * Web interface benchmark (issue 26 "Performance"). Run: `npm run bench -- ui [--flows N] [--trails-per-flow N]
 * [--attestations-per-trail N] [--envs N] [--policies N] [--samples N] [--pages REGEX] [--main PATH] [--md]`.
 * `--policies N` attaches a policy (provenance and trail compliance required) to the first N environments, so the
 * artifact page's gate answers are judged by policies there; `--pages` measures only the pages whose label matches;
 * `--main` starts another build's dist/src/main.js (a copy of an older build, for before/after pairs; its web
 * interface is the dist/ui beside it when a package.json is in the folder above its dist).
 *
 * Starts the real service (dist/src/main.js) on an embedded PostgreSQL (bench/ingest/harness.ts), bulk-inserts
 * flows, trails and attestations with generate_series (setup only; default 100 flows x 1,000 trails x 10
 * attestations = 100,000 trails and 1,000,000 attestations), creates environments through the API with one
 * report each, and an artifact, a control and an evaluation deciding on it, signs in through /ui in the distribution's headless Chromium, and opens each page afresh
 * `--samples` times, reading in the browser:
 *   - LCP: the largest-contentful-paint entry's start time;
 *   - ready: the `vt:ready` mark the page sets when its content is rendered and its controls are live (its time
 *     to interactive: the page's one script has run and every request it makes has answered);
 *   - bytes: transfer size of the document and every resource (first page, cold cache).
 * Targets: LCP and ready within 1 s for every page; under 300 KB for the first page.
 */
import { Client } from 'pg';
import { chromium } from 'playwright-core';
import { machine, percentile, startStack } from '../ingest/harness';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const FLOWS = arg('flows', 100);
const TRAILS = arg('trails-per-flow', 1000);
const PER_TRAIL = arg('attestations-per-trail', 10);
const ENVS = arg('envs', 50);
const SAMPLES = arg('samples', 5);
const POLICIES = arg('policies', 0);
const text = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const PAGES = new RegExp(text('pages') ?? '.');
const MAIN = text('main');
const MD = args.includes('--md');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function main() {
  console.log(
    `ui benchmark: ${FLOWS} flows x ${TRAILS} trails x ${PER_TRAIL} attestations, ${ENVS} environments (${POLICIES} with a policy), ${SAMPLES} samples per page; ${MAIN ?? 'dist/src/main.js'}; ${machine()}`,
  );
  const stack = await startStack({ main: MAIN });
  const db = new Client({ connectionString: stack.dbUrl });
  await db.connect();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  try {
    const started = Date.now();
    const [{ id: orgId }] = (await db.query(`SELECT id FROM organizations WHERE name = $1`, [stack.orgName])).rows;
    await db.query(
      `INSERT INTO flows (id, org_id, name) SELECT gen_random_uuid(), $1, 'flow-' || f FROM generate_series(1, $2::int) f`,
      [orgId, FLOWS],
    );
    await db.query(
      `INSERT INTO trails (id, org_id, flow_id, name, last_moment, created_at)
       SELECT gen_random_uuid(), $1, fl.id, 'trail-' || s, $3::int, now() - (s || ' minutes')::interval
       FROM flows fl, generate_series(1, $2::int) s WHERE fl.org_id = $1`,
      [orgId, TRAILS, PER_TRAIL],
    );
    await db.query(
      `INSERT INTO attestations (id, org_id, flow_id, trail_id, flow_seq, moment_number, name, attestation_type,
         is_compliant, description, origin_url, user_data, git_commit_info, reported_by, created_at)
       SELECT gen_random_uuid(), $1, t.flow_id, t.id,
         row_number() OVER (PARTITION BY t.flow_id ORDER BY t.created_at, t.id, s), s, 'check-' || s, 'generic', s % 7 <> 0,
         'generated attestation', 'https://ci.example.com/runs/' || s, jsonb_build_object('run', s),
         jsonb_build_object('sha1', md5(t.id::text || s), 'branch', 'main'), 'bench@example.com', t.created_at + (s || ' seconds')::interval
       FROM trails t, generate_series(1, $2::int) s WHERE t.org_id = $1`,
      [orgId, PER_TRAIL],
    );
    await db.query(
      `INSERT INTO flow_attestation_counters (org_id, flow_id, attestation_count, last_attested_at)
       SELECT $1, flow_id, count(*), max(created_at) FROM attestations WHERE org_id = $1 GROUP BY flow_id`,
      [orgId],
    );
    await db.query(`VACUUM ANALYZE`);
    await db.query(`CHECKPOINT`);
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${stack.baseUrl}/api/v2${path}`, {
        method,
        headers: { Authorization: `Bearer ${stack.apiKey}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    };
    for (let e = 1; e <= ENVS; e++) {
      await api('PUT', `/environments/${stack.orgName}`, { name: `env-${e}`, type: 'server', description: '' });
      await api('PUT', `/environments/${stack.orgName}/env-${e}/report/server`, { artifacts: [{ digests: { web: 'a'.repeat(64) }, creationTimestamp: 1700000000 }] });
    }
    if (POLICIES > 0) {
      const form = new FormData();
      form.set('payload', JSON.stringify({ name: 'bench-policy', description: '', type: 'env', comment: '' }));
      const yaml = '_schema: https://docs.kosli.com/schemas/policy/v1\nartifacts:\n  provenance:\n    required: true\n  trail-compliance:\n    required: true\n';
      form.set('policy_file', new Blob([yaml]), 'policy.yaml');
      const res = await fetch(`${stack.baseUrl}/api/v2/policies/${stack.orgName}`, { method: 'PUT', headers: { Authorization: `Bearer ${stack.apiKey}` }, body: form });
      if (res.status >= 300) throw new Error(`policy: ${res.status} ${await res.text()}`);
      for (let e = 1; e <= Math.min(POLICIES, ENVS); e++) await api('POST', `/environments/${stack.orgName}/env-${e}/policies`, { policy_names: ['bench-policy'] });
    }
    // For the artifact, search, controls and evaluations pages: the controls and evaluations betas on (as the
    // operator), one artifact in flow-1's first trail (the one the environments run), a control and a decision.
    const FP = 'a'.repeat(64);
    const admin = await fetch(`${stack.baseUrl}/api/v2/admin/organizations/${stack.orgName}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${stack.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ features: ['controls', 'evaluations'] }),
    });
    if (admin.status >= 300) throw new Error(`enable betas: ${admin.status} ${await admin.text()}`);
    await api('POST', `/artifacts/${stack.orgName}/flow-1`, { fingerprint: FP, filename: 'acme/web:1', trail_name: 'trail-1', template_reference_name: 'web', git_commit: 'c'.repeat(40) });
    await api('POST', `/controls/${stack.orgName}`, { identifier: 'CC-1', name: 'Changes are tested' });
    // The bulk-inserted trails have no moments; a decision on one may be refused, which the run reports and survives.
    await api('POST', `/evaluations/${stack.orgName}`, {
      context: { trails: [{ flow: 'flow-1', trail: 'trail-1' }] },
      policy: { files: { 'policy.rego': 'package policy\n\nallow := true\n' } },
      decision: { control: 'CC-1', name: 'bench', flow: 'flow-1', trail: 'trail-1' },
    }).catch((error) => console.log(`evaluation with a decision: ${(error as Error).message}`));
    console.log(`setup: ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const org = stack.orgName;
    const pages: Array<[string, string]> = [
      ['sign-in (first page)', '/ui/'],
      ['overview', `/ui/o/${org}`],
      ['flows', `/ui/o/${org}/flows`],
      ['flow (trails page 1)', `/ui/o/${org}/flows/flow-1`],
      [`flow (trails page ${TRAILS / 20})`, `/ui/o/${org}/flows/flow-1?page=${TRAILS / 20}`],
      ['trail', `/ui/o/${org}/flows/flow-1/trails/trail-1`],
      ['environments', `/ui/o/${org}/environments`],
      ['environment', `/ui/o/${org}/environments/env-1`],
      ['evidence log', `/ui/o/${org}/log`],
      ['artifact', `/ui/o/${org}/artifacts/flow-1/${FP}`],
      ['snapshot', `/ui/o/${org}/environments/env-1/snapshots/1`],
      ['controls', `/ui/o/${org}/controls`],
      ['evaluations', `/ui/o/${org}/evaluations`],
      ['search', `/ui/o/${org}/search?q=${FP.slice(0, 12)}`],
    ];
    const context = await browser.newContext();
    const signIn = await context.newPage();
    await signIn.goto(`${stack.baseUrl}/ui/`);
    await signIn.getByLabel('Organization').fill(org);
    await signIn.getByLabel('API key').fill(stack.apiKey);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await signIn.getByRole('heading', { name: `Overview of ${org}` }).waitFor();
    const cookies = await context.cookies();
    await context.close();

    const rows: Array<{ label: string; lcp: number; ready: number; bytes: number }> = [];
    for (const [label, path] of pages.filter(([label]) => PAGES.test(label))) {
      const lcps: number[] = [];
      const readies: number[] = [];
      let bytes = 0;
      for (let i = 0; i < SAMPLES + 1; i++) {
        // A fresh context each time: a cold cache, as a first visit.
        const ctx = await browser.newContext();
        if (!path.startsWith('/ui/?') && path !== '/ui/') await ctx.addCookies(cookies);
        const page = await ctx.newPage();
        await page.goto(`${stack.baseUrl}${path}`);
        await page.locator('main[data-ready="true"]').waitFor({ timeout: 60_000 });
        const heading = await page.locator('main h1').first().innerText();
        if (/Could not load|Not found|Sign in/.test(heading) && path !== '/ui/') throw new Error(`${label}: the page shows "${heading}": ${await page.locator('main').innerText()}`);
        const m = await page.evaluate(
          () =>
            new Promise<{ lcp: number; ready: number; bytes: number }>((resolve) => {
              // Evaluated in the page (DOM types are not in this project's compile).
              const perf = (globalThis as any).performance;
              new (globalThis as any).PerformanceObserver((list: any) => {
                const entries = list.getEntries();
                const lcp = entries[entries.length - 1]?.startTime ?? 0;
                const ready = perf.getEntriesByName('vt:ready')[0]?.startTime ?? 0;
                const nav = perf.getEntriesByType('navigation')[0];
                const res: any[] = perf.getEntriesByType('resource');
                resolve({ lcp, ready, bytes: (nav?.transferSize ?? 0) + res.reduce((n, r) => n + r.transferSize, 0) });
              }).observe({ type: 'largest-contentful-paint', buffered: true });
            }),
        );
        await ctx.close();
        if (i === 0) continue; // warm-up of the server's caches
        lcps.push(m.lcp);
        readies.push(m.ready);
        bytes = m.bytes;
      }
      lcps.sort((a, b) => a - b);
      readies.sort((a, b) => a - b);
      const r = { label, lcp: percentile(lcps, 50), ready: percentile(readies, 50), bytes };
      rows.push(r);
      console.log(`${label.padEnd(28)} LCP p50 ${r.lcp.toFixed(0)} ms (max ${lcps[lcps.length - 1].toFixed(0)})  ready p50 ${r.ready.toFixed(0)} ms (max ${readies[readies.length - 1].toFixed(0)})  ${(r.bytes / 1024).toFixed(1)} KB`);
    }
    if (MD) {
      console.log('\n| page | LCP p50 (ms) | ready p50 (ms) | transferred (KB) |\n| --- | --- | --- | --- |');
      for (const r of rows) console.log(`| ${r.label} | ${r.lcp.toFixed(0)} | ${r.ready.toFixed(0)} | ${(r.bytes / 1024).toFixed(1)} |`);
    }
  } finally {
    await browser.close();
    await db.end();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
