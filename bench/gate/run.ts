/**
 * The deployment gate's benchmark (issue 23, "Performance"): `npm run bench -- gate [--requests N] [--pods N]
 * [--images N] [--rounds N]`.
 *
 * Against the real service (dist/src/main.js) and an embedded PostgreSQL with durable settings:
 * - `assert artifact` against an environment with 3 policies of 10 rules each (provenance, trail compliance,
 *   8 attestation rules with `if` expressions and a regular expression), one request at a time: p50 / p99;
 * - the admission webhook with a pod of 5 containers (images by digest, each reported in a trail): p50 / p99;
 * - a 5,000-pod K8S report (1,000 images, each reported in a trail with attestations) to an environment with
 *   the 3 policies attached: unchanged and changed (one image's digest alternates), p50 of each, in paired
 *   rounds with the same report to an environment without policies.
 * The load average is printed with the figures (the machine is shared).
 */
import * as http from 'node:http';
import * as os from 'node:os';
import { randomBytes } from 'node:crypto';
import { machine, percentile, request, startStack } from '../ingest/harness';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const REQUESTS = arg('requests', 300);
const PODS = arg('pods', 5000);
const IMAGES = arg('images', 1000);
const ROUNDS = arg('rounds', 5);
const BOUNDARY = '----veritrail-gate-' + randomBytes(8).toString('hex');
const fp = (i: number) => (i.toString(16).padStart(8, '0') + 'a'.repeat(56)).slice(0, 64);

function form(fields: Record<string, string>, file?: { name: string; content: string }): Buffer {
  let out = '';
  for (const [k, v] of Object.entries(fields)) out += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  if (file) out += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.name}"; filename="p.yaml"\r\nContent-Type: application/octet-stream\r\n\r\n${file.content}\r\n`;
  return Buffer.from(out + `--${BOUNDARY}--\r\n`);
}

/** A policy of 10 rules: provenance and trail compliance with exceptions, 8 attestation rules with conditions. */
function policy(n: number): string {
  let y = `_schema: https://docs.kosli.com/schemas/policy/v1\nartifacts:\n`;
  y += `  provenance:\n    required: true\n    exceptions:\n      - if: \${{ matches(artifact.name, "^datadog:.*") }}\n`;
  y += `  trail-compliance:\n    required: true\n    exceptions:\n      - if: \${{ artifact.name in ["sidecar", "proxy"] }}\n`;
  y += `  attestations:\n`;
  for (let i = 0; i < 8; i++) {
    y += `    - name: check-${(n * 3 + i) % 8}\n      type: ${i % 2 ? 'generic' : '"*"'}\n`;
    if (i % 3 === 0) y += `      if: \${{ flow.tags.risk-level == "high" and not matches(artifact.name, "^test-.*") }}\n`;
  }
  return y;
}

const loadavg = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

async function main(): Promise<void> {
  const stack = await startStack();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const auth = { Authorization: `Bearer ${stack.apiKey}` };
  const json = { ...auth, 'Content-Type': 'application/json' };
  const multipart = { ...auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
  const api = `${stack.baseUrl}/api/v2`;
  const org = stack.orgName;
  const ok = async (p: Promise<{ status: number; body: string }>, status: number) => {
    const res = await p;
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.body.slice(0, 300)}`);
    return res;
  };
  try {
    // Evidence: IMAGES artifacts, 20 per trail, each with 8 generic attestations; the flow is high risk.
    await ok(request(`${api}/flows/${org}`, { method: 'PUT', headers: json, body: JSON.stringify({ name: 'app', visibility: 'private' }), agent }), 201);
    await ok(request(`${api}/tags/${org}/flow/app`, { method: 'PATCH', headers: json, body: JSON.stringify({ set_tags: { 'risk-level': 'high' } }), agent }), 200);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < IMAGES; i = next++) {
        const trail = `t${Math.floor(i / 20)}`;
        if (i % 20 === 0) await ok(request(`${api}/trails/${org}/app`, { method: 'PUT', headers: multipart, body: form({ data_json: JSON.stringify({ name: trail }) }), agent }), 201);
        else while ((await request(`${api}/trails/${org}/app/${trail}`, { headers: auth, agent })).status !== 200) await new Promise((r) => setTimeout(r, 20));
        await ok(
          request(`${api}/artifacts/${org}/app`, { method: 'POST', headers: json, body: JSON.stringify({ fingerprint: fp(i), filename: `img-${i}`, trail_name: trail, template_reference_name: `img-${i}` }), agent }),
          201,
        );
        for (let c = 0; c < 8; c++) {
          const data = { attestation_name: `check-${c}`, is_compliant: true, artifact_fingerprint: fp(i) };
          await ok(request(`${api}/attestations/${org}/app/trail/${trail}/generic`, { method: 'POST', headers: multipart, body: form({ data_json: JSON.stringify(data) }), agent }), 201);
        }
      }
    };
    // Trails are begun by the worker holding their first image; the others wait for the trail to exist.
    await Promise.all(Array.from({ length: 8 }, worker));
    for (let p = 0; p < 3; p++) {
      await ok(request(`${api}/policies/${org}`, { method: 'PUT', headers: multipart, body: form({ payload: JSON.stringify({ name: `p${p}` }) }, { name: 'policy_file', content: policy(p) }), agent }), 201);
    }
    for (const env of ['gated', 'plain']) {
      await ok(request(`${api}/environments/${org}`, { method: 'PUT', headers: json, body: JSON.stringify({ name: env, type: 'K8S' }), agent }), 201);
    }
    await ok(request(`${api}/environments/${org}/gated/policies`, { method: 'POST', headers: json, body: JSON.stringify({ policy_names: ['p0', 'p1', 'p2'] }), agent }), 200);

    const timed = async (n: number, call: (i: number) => Promise<unknown>) => {
      for (let i = 0; i < 20; i++) await call(i);
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = process.hrtime.bigint();
        await call(i);
        times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      return times.sort((a, b) => a - b);
    };
    const rows: string[] = [];
    const row = (what: string, times: number[], target: string) =>
      rows.push(`| ${what} | ${times.length} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 99).toFixed(1)} | ${target} | ${loadavg()} |`);

    const assertTimes = await timed(REQUESTS, (i) =>
      ok(request(`${api}/asserts/${org}/fingerprint/${fp(i % IMAGES)}?environment_name=gated`, { headers: auth, agent }), 200),
    );
    row('assert artifact, environment with 3 policies x 10 rules', assertTimes, 'p99 <= 20 ms');

    const review = (i: number) =>
      JSON.stringify({
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        request: {
          uid: `u-${i}`,
          kind: { group: '', version: 'v1', kind: 'Pod' },
          namespace: 'shop',
          operation: 'CREATE',
          object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: Array.from({ length: 5 }, (_, c) => ({ name: `c${c}`, image: `reg/img-${(i + c) % IMAGES}@sha256:${fp((i + c) % IMAGES)}` })) } },
        },
      });
    const admissionTimes = await timed(REQUESTS, (i) => ok(request(`${api}/admission/${org}/gated`, { method: 'POST', headers: json, body: review(i), agent }), 200));
    row('admission review, pod of 5 containers', admissionTimes, 'p99 <= 20 ms');

    // Reports: PODS pods over IMAGES images; "changed" alternates one image's digest.
    const report = (variant: number) =>
      JSON.stringify({
        artifacts: Array.from({ length: PODS }, (_, p) => {
          const image = p % IMAGES;
          const digest = image === 0 && variant % 2 ? fp(IMAGES + 1) : fp(image);
          return { podName: `pod-${p}`, namespace: 'shop', digests: { [`img-${image}`]: digest }, creationTimestamp: 1700000000 + p, owners: null };
        }),
      });
    const bodies = [report(0), report(1)];
    const put = (env: string, body: string, status: number) => ok(request(`${api}/environments/${org}/${env}/report/K8S`, { method: 'PUT', headers: json, body, agent }), status);
    for (const env of ['gated', 'plain']) await put(env, bodies[0], 201);
    const samples: Record<string, number[]> = { 'gated unchanged': [], 'plain unchanged': [], 'gated changed': [], 'plain changed': [] };
    let variant = 0;
    for (let r = 0; r < ROUNDS; r++) {
      for (const env of ['gated', 'plain']) {
        for (let i = 0; i < 5; i++) {
          const t0 = process.hrtime.bigint();
          await put(env, bodies[variant % 2], 200);
          samples[`${env} unchanged`].push(Number(process.hrtime.bigint() - t0) / 1e6);
        }
      }
      variant++;
      for (const env of ['gated', 'plain']) {
        const t0 = process.hrtime.bigint();
        await put(env, bodies[variant % 2], 201);
        samples[`${env} changed`].push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }
    for (const [what, times] of Object.entries(samples)) {
      times.sort((a, b) => a - b);
      row(`report of ${PODS} pods (${IMAGES} images), ${what.startsWith('gated') ? 'with 3 policies' : 'no policy'}, ${what.split(' ')[1]}`, times, what.endsWith('unchanged') ? 'p50 <= 50 ms' : 'p50 <= 200 ms');
    }

    const header = ['| case | samples | p50 ms | p99 ms | target | load average (1 5 15 min) |', '| --- | --- | --- | --- | --- | --- |'];
    const out = [`Machine: ${machine()}; ${new Date().toISOString()}`, '', ...header, ...rows].join('\n');
    console.log(out);
  } finally {
    agent.destroy();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
