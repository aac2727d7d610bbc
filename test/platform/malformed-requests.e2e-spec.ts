import fc from 'fast-check';
import * as http from 'node:http';
import * as net from 'node:net';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Test } from 'supertest';
import { BETA_FEATURES } from '../../src/common/auth/principal';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { describeRoute, fillPath, listRoutes, queryFields, RouteEntry } from '../support/route-table';
import { startTestApp, TestApp } from '../support/test-app';
import { routeInputs } from '../../src/common/openapi/route-inputs';

/**
 * Property-based malformed requests over every route of the route table (a route added later is covered
 * without being listed): odd path segments, odd queries, broken JSON, broken multipart, hostile YAML templates,
 * each with a valid key (of an org with every beta feature, so requests get past authentication to the
 * validators), with no credential and with a bad one. Every answer must be a 4xx (or a success) with the error
 * body, within a client timeout, and a refused request must leave the org's stored data as it was.
 *
 * `PROPS_RUNS` (runs with a valid key per route and class, default 4; half as many without one) and
 * `PROPS_SEED` change the run (`PROPS_ROUTES=<regex>` probes only matching routes); `npm run test:props` runs 100. `PROPS_VERBOSE=1` prints every request.
 */

/**
 * Classes answered below the application (compressed bodies, what Node's HTTP parser refuses, far oversized
 * bodies) are hardened on another branch: their generators (serverClass) are here but skipped until both
 * branches are merged. Flip to `false` then.
 */
const SERVER_LEVEL_CLASSES_PENDING = false;

const HERE = 'test/platform/malformed-requests.e2e-spec.ts';
const RUNS = Number(process.env.PROPS_RUNS ?? 4);
const SEED = Number(process.env.PROPS_SEED ?? 20261125);
/** No request may take longer than this (nothing here needs more than a fraction of it). */
const CLIENT_TIMEOUT_MS = 20_000;
/** `PROPS_VERBOSE=1` prints every request's status and label. */
const VERBOSE = process.env.PROPS_VERBOSE === '1';
/** `PROPS_ROUTES=<regular expression>`: only the routes whose `METHOD /path` matches (to probe a few on a busy machine). */
const ONLY = process.env.PROPS_ROUTES ? new RegExp(process.env.PROPS_ROUTES) : null;
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

interface World {
  org: TestOrg;
  orgId: string;
  flow: string;
  trail: string;
  attestationName: string;
  attestationId: string;
  controlIdentifier: string;
  evaluationId: string;
  env: string;
  repoName: string;
  serviceAccount: string;
  keyId: string;
  credentialEventId: string;
  actionNumber: number;
  customType: string;
  policyName: string;
  /** An artifact reported in the trail (and running in `env`). */
  fingerprint: string;
}

/** Valid values for every path parameter, so that a malformed request reaches the route's validators. */
const PATH_FILLERS: Record<string, (w: World) => string> = {
  org: (w) => w.org.name,
  flow: (w) => w.flow,
  flow_name: (w) => w.flow,
  trail: (w) => w.trail,
  trail_name: (w) => w.trail,
  attestation_id: (w) => w.attestationId,
  attestation_name: (w) => w.attestationName,
  name: (w) => w.repoName,
  expression: () => 'latest',
  identifier: (w) => w.controlIdentifier,
  id: (w) => w.evaluationId,
  env: (w) => w.env,
  snapshot_expression: () => 'latest',
  resource_type: () => 'flow',
  resource_id: (w) => w.flow,
  service_account: (w) => w.serviceAccount,
  key_id: (w) => w.keyId,
  event_id: (w) => w.credentialEventId,
  number: (w) => String(w.actionNumber),
  notification_number: (w) => String(w.actionNumber),
  hook_uid: () => 'f'.repeat(32), // a SonarQube or LaunchDarkly webhook (none: its receiver answers 404 before reading more)
  custom_attestation_type_name: (w) => w.customType,
  policy_name: (w) => w.policyName,
  version: () => '1', // a control's or a policy's version (version 1 of each exists)
  fingerprint: (w) => w.fingerprint,
  commit_sha: () => 'c'.repeat(40),
  search_value: () => 'a'.repeat(64),
  repo: (w) => w.repoName,
  mode: () => 'warn', // POST /admission/{org}/{env}/{mode}[/exempt/*namespaces]: the webhook's settings, naming nothing of an org
  namespaces: () => 'kube-system',
};

type Body = { kind: 'json'; value: Record<string, unknown> } | { kind: 'form'; fields: Record<string, string> };

/** A valid body per write route (a route without one gets `{}`): the mutations below start from it. */
const VALID_BODIES: Record<string, (w: World) => Body> = {
  'PUT /api/v2/flows/:org': () => ({ kind: 'json', value: { name: `flow-${hex(4)}`, description: 'made by a probe', visibility: 'private' } }),
  'PUT /api/v2/flows/:org/template_file': () => ({ kind: 'form', fields: { data_json: JSON.stringify({ name: `flow-${hex(4)}` }) } }),
  'PUT /api/v2/trails/:org/:flow': () => ({ kind: 'form', fields: { data_json: JSON.stringify({ name: `trail-${hex(4)}`, description: 'd' }) } }),
  'POST /api/v2/artifacts/:org/:flow': (w) => ({
    kind: 'json',
    value: { fingerprint: hex(32), filename: 'probe.bin', trail_name: w.trail, template_reference_name: 'probe' },
  }),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/generic': () => ({
    kind: 'form',
    fields: { data_json: JSON.stringify({ attestation_name: 'probe', is_compliant: true, user_data: { note: 'n' } }) },
  }),
  // Typed attestation types (test/attestations/typed): each with its required evidence field.
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/junit': () => ({
    kind: 'form',
    fields: { data_json: JSON.stringify({ attestation_name: 'probe', junit_results: [{ name: 's', failures: 0, errors: 0, skipped: 0, total: 1, duration: 0.1 }] }) },
  }),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/snyk': () => ({
    kind: 'form',
    fields: { data_json: JSON.stringify({ attestation_name: 'probe', snyk_results: { tool: { name: 'SnykCode', version: '1' }, results: [{ high_count: 0, medium_count: 0, low_count: 0 }] } }) },
  }),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/sonar': () => ({
    kind: 'form',
    fields: {
      data_json: JSON.stringify({
        attestation_name: 'probe',
        sonar_results: { analysedAt: '2026-01-01T00:00:00+0000', revision: 'r', project: { key: 'k', url: 'u' }, qualityGate: { status: 'OK', conditions: [] } },
      }),
    },
  }),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/jira': () => ({
    kind: 'form',
    fields: { data_json: JSON.stringify({ attestation_name: 'probe', jira_results: [{ issue_id: 'P-1', issue_url: 'u', issue_exists: true }] }) },
  }),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/pull_request': () => ({
    kind: 'form',
    fields: { data_json: JSON.stringify({ attestation_name: 'probe', git_provider: 'github', pull_requests: [{ url: 'u', state: 'OPEN', merge_commit: '' }] }) },
  }),
  'POST /api/v2/integrations/:org/sonar': () => ({ kind: 'json', value: { flow_name_from: 'name', flow_name_prefix: 'p-', flow_name_suffix: '-s' } }),
  'POST /api/v2/integrations/:org/launch-darkly': () => ({ kind: 'json', value: { flow_name: 'ld-flags', trail_name: 'ld-{environment}', app_url: 'https://app.launchdarkly.com' } }),
  'POST /api/v2/webhooks/launch-darkly/:hook_uid': () => ({
    kind: 'json',
    value: { _id: 'e1', kind: 'flag', date: 1764201600000, accesses: [{ action: 'updateOn', resource: 'proj/p:env/e:flag/f' }], member: { email: 'a@example.com' } },
  }),
  'POST /api/v2/webhooks/sonar/:hook_uid': () => ({
    kind: 'json',
    value: { analysedAt: '2026-01-01T00:00:00+0000', revision: 'r', project: { key: 'k', url: 'u' }, qualityGate: { status: 'OK', conditions: [] } },
  }),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/system': (w) => ({
    kind: 'form',
    fields: {
      data_json: JSON.stringify({ type_name: 'decision', attestation_name: 'probe', control: w.controlIdentifier, attestation_data: { is_compliant: true } }),
    },
  }),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/custom': (w) => ({
    kind: 'form',
    fields: { data_json: JSON.stringify({ attestation_name: 'probe', type_name: w.customType, attestation_data: { age: 30 } }) },
  }),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/override': (w) => ({
    kind: 'json',
    value: { attestation_name: w.attestationName, reason: 'probe', new_compliance_status: true, original_attestation_type: 'generic' },
  }),
  'POST /api/v2/custom-attestation-types/:org': () => ({
    kind: 'form',
    fields: { data_json: JSON.stringify({ name: `type-${hex(3)}`, description: 'd', evaluator: { content_type: 'jq', rules: ['.age > 1'] } }) },
  }),
  'PUT /api/v2/environments/:org': () => ({ kind: 'json', value: { name: `env-${hex(4)}`, type: 'K8S', description: 'd' } }),
  'PUT /api/v2/environments/:org/:env/join': () => ({ kind: 'json', value: { physical_env_name: 'probe' } }),
  'PUT /api/v2/flows/:org/:flow/rename': () => ({ kind: 'json', value: { new_name: `renamed-${hex(4)}` } }),
  'PUT /api/v2/environments/:org/:env/rename': () => ({ kind: 'json', value: { new_name: `renamed-${hex(4)}` } }),
  'PUT /api/v2/environments/:org/:env/report/K8S': (w) => ({
    kind: 'json',
    value: { artifacts: [{ podName: 'p', namespace: 'n', digests: { image: hex(32) }, creationTimestamp: 1700000000 }] },
  }),
  'PATCH /api/v2/tags/:org/:resource_type/:resource_id': () => ({ kind: 'json', value: { set_tags: { probe: 'v' }, remove_tags: ['x'] } }),
  'POST /api/v2/evaluations/:org': (w) => ({
    kind: 'json',
    value: {
      context: { trails: [{ flow: w.flow, trail: w.trail }] },
      policy: { files: { 'policy.rego': 'package policy\n\nallow := true\n' } },
    },
  }),
  'POST /api/v2/controls/:org': () => ({ kind: 'json', value: { identifier: `C-${hex(3)}`, name: 'n', description: 'd' } }),
  'PUT /api/v2/controls/:org/:identifier': () => ({ kind: 'json', value: { name: 'n', description: 'd' } }),
  'POST /api/v2/service-accounts/:org': () => ({ kind: 'json', value: { name: `bot-${hex(3)}`, description: 'd', privilege: 'member' } }),
  'PATCH /api/v2/service-accounts/:org/:service_account': () => ({ kind: 'json', value: { description: 'd' } }),
  'POST /api/v2/service-accounts/:org/:service_account/api-keys': () => ({ kind: 'json', value: { description: 'd', expires_at: 0 } }),
  'POST /api/v2/service-accounts/:org/:service_account/api-keys/:key_id/rotate': () => ({ kind: 'json', value: { grace_period_hours: 1 } }),
  'POST /api/v2/api-keys/:org': () => ({ kind: 'json', value: { description: 'd', expires_at: 0 } }),
  'POST /api/v2/api-keys/:org/:key_id/rotate': () => ({ kind: 'json', value: { grace_period_hours: 1 } }),
  'PUT /api/v2/actions/:org/flows': (w) => ({
    kind: 'json',
    value: { name: `a-${hex(3)}`, flows: [w.flow], triggers: ['ON_ATTESTATION'], targets: [{ type: 'EMAIL', emails: ['a@example.com'] }] },
  }),
  'PUT /api/v2/actions/:org/environments': (w) => ({
    kind: 'json',
    value: { name: `a-${hex(3)}`, environments: [w.env], triggers: ['ON_COMPLIANT_ENV'], targets: [{ type: 'EMAIL', emails: ['a@example.com'] }] },
  }),
  'PUT /api/v2/policies/:org': () => ({ kind: 'form', fields: { payload: JSON.stringify({ name: `policy-${hex(3)}`, description: 'd' }) } }),
  'POST /api/v2/environments/:org/:env/policies': (w) => ({ kind: 'json', value: { policy_names: [w.policyName] } }),
  'DELETE /api/v2/environments/:org/:env/policies': (w) => ({ kind: 'json', value: { policy_names: [w.policyName] } }),
  'PUT /api/v2/allowlists/:org/:env': (w) => ({ kind: 'json', value: { artifact_name: 'probe', artifact_fingerprint: w.fingerprint, description: 'd' } }),
  'POST /api/v2/admission/:org/:env': (w) => ({
    kind: 'json',
    value: {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'u-1',
        kind: { group: '', version: 'v1', kind: 'Pod' },
        namespace: 'n',
        operation: 'CREATE',
        object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: `app@sha256:${w.fingerprint}` }] } },
      },
    },
  }),
  'POST /api/v2/admin/organizations': () => ({ kind: 'json', value: { name: `org-${hex(4)}`, features: [], admin: { email: 'p@example.com' } } }),
  'PATCH /api/v2/admin/organizations/:org': () => ({ kind: 'json', value: { features: [...BETA_FEATURES] } }),
  'POST /api/v2/admin/organizations/:org/members': () => ({ kind: 'json', value: { email: `m-${hex(3)}@example.com`, role: 'reader' } }),
};

/** One request as bytes on the wire: the path is sent exactly as given. */
interface Wire {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** A seed per route and class (from the run's seed), so routes do not all get the same choices. */
function seedOf(key: string): number {
  let h = SEED | 0;
  for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0;
  return h;
}

function send(baseUrl: string, wire: Wire): Promise<Answer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method: wire.method, path: wire.path, headers: wire.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(CLIENT_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${CLIENT_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(wire.body);
  });
}

/** Bytes straight onto a socket, for requests an HTTP client refuses to send; the answer is parsed loosely. */
function sendRaw(baseUrl: string, bytes: Buffer): Promise<Answer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${CLIENT_TIMEOUT_MS} ms`)), CLIENT_TIMEOUT_MS);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(all)?.[1] ?? 0);
      const [head, ...rest] = all.split('\r\n\r\n');
      const contentType = /content-type: *([^\r\n]*)/i.exec(head)?.[1] ?? '';
      resolve({ status, contentType, text: rest.join('\r\n\r\n') });
    });
    socket.end(bytes);
  });
}

/** What is wrong with an answer to a malformed request, or null. */
function answerProblem(answer: Answer, method: string): string | null {
  if (answer.status >= 500 || answer.status < 100) return `status ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (answer.status < 400 || method === 'HEAD') return null;
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `status ${answer.status} without a JSON body: ${JSON.stringify(answer.text.slice(0, 200))}`;
  }
  if (!/application\/json/.test(answer.contentType)) return `status ${answer.status} with Content-Type ${answer.contentType}`;
  const errorsOk =
    body?.errors === null ||
    (typeof body?.errors === 'object' && !Array.isArray(body.errors) && Object.values(body.errors).every((v) => typeof v === 'string'));
  if (typeof body?.message !== 'string' || !errorsOk) return `status ${answer.status} without the error body: ${answer.text.slice(0, 300)}`;
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Generators. Each class builds a Wire from the route's valid request (path, body) and a random choice.

interface Base {
  route: RouteEntry;
  world: World;
  /** Path parameter values as they go on the wire (already encoded). */
  segments: Record<string, string>;
  query: string;
  body: Body | null;
  credential: Record<string, string>;
}

const ODD_SEGMENTS = [
  '%00',
  'a%00b',
  '%00%00',
  '%ff',
  '%fe%ff',
  '%c0%af',
  '%ed%a0%80', // a lone surrogate, as UTF-8
  '%e2%80%ae',
  '%ef%bf%bf',
  '%f0%9f%92%a9',
  '..',
  '.',
  '%2e%2e',
  '%2f',
  '%5c',
  '%25',
  '%',
  '%zz',
  '%20',
  '~',
  '-',
  '%3F',
  '%23',
  'x'.repeat(4000),
  '9'.repeat(40),
  '-9999999999999999999',
  '@{999999999.days.ago}',
  '@%7B999999999.days.ago%7D',
  '@%7B99999999999%7D',
  '@%7B9999-12-31T23:59:59Z%7D',
  '@%7B0001-01-01T00:00:00Z%7D',
  '@%7B999999999.months.ago%7D',
  '@%7B999999999.weeks.ago%7D',
  '@%7B999999999999.999999999%7D',
  '~99999999999999999',
  '-99999999999999999',
  '%23999999999999999999',
];

const oddSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_SEGMENTS) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 20 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String) },
);

const ODD_QUERY_VALUES = [
  '99999999999999999999',
  '-99999999999999999999',
  '99999999999999',
  '-99999999999999',
  '9007199254740993',
  '1e308',
  '1e400',
  '-1e400',
  '-1',
  '0',
  '1.5',
  '0x10',
  '1_000',
  'NaN',
  'Infinity',
  '-Infinity',
  '',
  '%00',
  'a%00b',
  '%ff',
  '%',
  'true',
  '%5B%5D',
  '@%7B999999999.days.ago%7D',
  '@%7B99999999999%7D',
  '@%7B9999-12-31T23:59:59Z%7D',
  '@%7B0001-01-01T00:00:00Z%7D',
  '~99999999999999999',
  '-99999999999999999',
  '1..99999999999999999',
  '@%7B999999999.months.ago%7D..NOW',
  '-99999999999..-1',
  'x'.repeat(5000),
  '%E2%80%AE',
];

const oddQueryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_QUERY_VALUES) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent) },
);

function pathOf(base: Base, override: Record<string, string> = {}): string {
  const segments = { ...base.segments, ...override };
  const marked = fillPath(base.route, (p) => (segments[p] === undefined ? undefined : `\u0001${p}\u0001`), HERE);
  // fillPath encodes what it inserts; the markers come back encoded and are replaced by the raw wire value.
  return marked.replace(/%01([A-Za-z0-9_]+)%01/g, (_, p: string) => segments[p]);
}

function withQuery(path: string, query: string): string {
  return query ? `${path}?${query}` : path;
}

function jsonWire(base: Base, path: string, text: string | Buffer, contentType = 'application/json'): Wire {
  const body = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  return { method: base.route.method, path, headers: { ...base.credential, 'content-type': contentType, 'content-length': String(body.length) }, body };
}

function validJson(base: Base): Record<string, unknown> {
  if (!base.body) return {};
  if (base.body.kind === 'json') return base.body.value;
  return JSON.parse(base.body.fields.data_json ?? '{}');
}

/** The request with `document` as its JSON: as the body, or as `data_json` of the route's form. */
function documentWire(base: Base, text: string): Wire {
  const path = withQuery(pathOf(base), base.query);
  if (base.body?.kind === 'form') return formWire(base, path, [{ name: 'data_json', value: Buffer.from(text, 'utf8') }]);
  return jsonWire(base, path, text);
}

interface Part {
  name?: string;
  filename?: string;
  headers?: string[];
  value: Buffer;
}

function formBytes(boundary: string, parts: Part[], close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let disposition = 'Content-Disposition: form-data';
    if (part.name !== undefined) disposition += `; name="${part.name}"`;
    if (part.filename !== undefined) disposition += `; filename="${part.filename}"`;
    chunks.push(Buffer.from(`--${boundary}\r\n${[disposition, ...(part.headers ?? [])].join('\r\n')}\r\n\r\n`, 'utf8'), part.value, Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

function formWire(base: Base, path: string, parts: Part[], options: { contentType?: string; boundary?: string; cut?: number; close?: boolean } = {}): Wire {
  const boundary = options.boundary ?? `----probe${hex(6)}`;
  let body = formBytes(boundary, parts, options.close ?? true);
  if (options.cut !== undefined) body = body.subarray(0, Math.max(0, Math.floor(body.length * options.cut)));
  const contentType = options.contentType ?? `multipart/form-data; boundary=${boundary}`;
  return { method: base.route.method, path, headers: { ...base.credential, 'content-type': contentType, 'content-length': String(body.length) }, body };
}

/** The route's valid form fields as parts (a JSON route's body goes in `data_json`). */
function validParts(base: Base): Part[] {
  const fields = base.body?.kind === 'form' ? base.body.fields : { data_json: JSON.stringify(validJson(base)) };
  return Object.entries(fields).map(([name, value]) => ({ name, value: Buffer.from(value, 'utf8') }));
}

/** Every string leaf of a JSON value, with a setter. */
function leaves(value: unknown, out: { path: string; set: (v: unknown) => void; get: () => unknown }[] = [], path = ''): typeof out {
  if (value && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const holder = value as Record<string, unknown>;
      out.push({ path: `${path}.${key}`, get: () => holder[key], set: (v) => (holder[key] = v) });
      leaves(holder[key], out, `${path}.${key}`);
    }
  }
  return out;
}

function deep(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

type Build = (base: Base) => fc.Arbitrary<{ label: string; wire: Wire | Buffer }>;

const pathClass: Build = (base) => {
  const params = base.route.params;
  if (!params.length) return fc.constant({ label: 'no path parameter', wire: documentWire(base, JSON.stringify(validJson(base))) });
  return fc.tuple(fc.constantFrom(...params), oddSegment).map(([param, segment]) => {
    const path = withQuery(pathOf(base, { [param]: segment }), base.query);
    const wire = base.body?.kind === 'form' ? formWire(base, path, validParts(base)) : jsonWire(base, path, JSON.stringify(validJson(base)));
    return { label: `path ${param}=${segment.slice(0, 60)}`, wire };
  });
};

const queryClass: Build = (base) => {
  const names = [...new Set([...queryFields(base.route).map((f) => f.name), 'page', 'per_page', 'from_timestamp'])];
  const key = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'page[]', '%00', 'a[b]', '') });
  return fc.array(fc.tuple(key, fc.array(oddQueryValue, { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 3 }).map((pairs) => {
    const query = pairs.flatMap(([k, values]) => values.map((v) => `${k}=${v}`)).join('&');
    const path = withQuery(pathOf(base), query);
    const wire = base.body?.kind === 'form' ? formWire(base, path, validParts(base)) : jsonWire(base, path, JSON.stringify(validJson(base)));
    return { label: `query ${query.slice(0, 120)}`, wire };
  });
};

/** The route's valid document with one field changed (a NUL inserted, a wrong type, a huge or deep value). */
const fieldClass: Build = (base) => {
  const hostile = fc.oneof(
    fc.constantFrom<unknown>('\u0000', 'a\u0000b', '\u0000'.repeat(10), 'x'.repeat(100_000), -1, 1e308, -1e308, 99999999999999999999, 2 ** 31, 2 ** 63, 1.5, true, null, [], {}, ['\u0000'], { '\u0000': 1 }, { a: { '\u0000b': 'c' } }),
    fc.jsonValue({ maxDepth: 3 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.integer({ min: 5, max: 2000 }).map((d) => JSON.parse(deep(d, 'array'))),
  );
  return fc.tuple(fc.nat(), hostile, fc.boolean()).map(([pick, value, asKey]) => {
    const doc = structuredClone(validJson(base));
    const all = leaves(doc);
    let label: string;
    if (asKey || !all.length) {
      const key = typeof value === 'string' ? value.slice(0, 100) : `k\u0000${pick}`;
      const holder = all.length ? (all[pick % all.length].get() as any) : doc;
      if (holder && typeof holder === 'object' && !Array.isArray(holder)) holder[key] = 1;
      else doc[key] = value;
      label = `key ${JSON.stringify(key).slice(0, 60)}`;
    } else {
      const leaf = all[pick % all.length];
      leaf.set(value);
      label = `field ${leaf.path} = ${JSON.stringify(value)?.slice(0, 60)}`;
    }
    return { label, wire: documentWire(base, JSON.stringify(doc)) };
  });
};

/** JSON text that is broken as text: truncated, duplicate keys, deep, huge, bad bytes, odd content types. */
const jsonTextClass: Build = (base) => {
  const valid = JSON.stringify(validJson(base));
  const texts = fc.oneof(
    fc.nat({ max: Math.max(0, valid.length - 1) }).map((cut) => ({ label: `truncated at ${cut}`, text: valid.slice(0, cut) as string | Buffer })),
    fc.constant({ label: 'duplicate keys', text: valid.replace(/^\{"([^"]+)":/, (m, k) => `{"${k}":{"x":[1]},"${k}":7,"${k}":`) }),
    fc.constantFrom(1_000, 100_000).map((d) => ({ label: `array nested ${d} deep`, text: deep(d, 'array') })),
    fc.constantFrom(1_000, 100_000).map((d) => ({ label: `object nested ${d} deep`, text: deep(d, 'object') })),
    fc.constant({ label: '2 MB string', text: JSON.stringify({ ...validJson(base), description: 'y'.repeat(2 * 1024 * 1024) }) }),
    fc.constant({ label: 'NUL escape', text: valid.replace(/"([^"]*)"(?=[,}])/, '"$1\\u0000"') }),
    fc.constant({ label: 'raw NUL byte', text: valid.replace(/"([^"]*)"(?=[,}])/, '"$1\u0000"') }),
    fc.constant({ label: 'invalid UTF-8', text: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc0, 0x80]), Buffer.from('"}')]) }),
    fc.constant({ label: 'lone surrogate escape', text: valid.replace(/"([^"]*)"(?=[,}])/, '"$1\\ud800"') }),
    fc.constant({ label: 'BOM', text: '\ufeff' + valid }),
    fc.constantFrom('null', '[]', '""', '0', 'true', '"\\u0000"', '[null]', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"x":1}}}').map((text) => ({ label: `document ${text}`, text })),
    fc.json({ maxDepth: 4 }).map((text) => ({ label: `random JSON ${text.slice(0, 40)}`, text })),
    fc.string({ unit: 'binary', maxLength: 40 }).map((text) => ({ label: 'random text', text })),
  );
  const types = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/merge-patch+json', 'text/plain', 'application/x-www-form-urlencoded', '', 'multipart/form-data');
  return fc.tuple(texts, types, fc.boolean()).map(([{ label, text }, type, asForm]) => {
    if (asForm && typeof text === 'string') return { label: `data_json: ${label}`, wire: documentWire(base, text) };
    const path = withQuery(pathOf(base), base.query);
    return { label: `${label} as ${type || '(no type)'}`, wire: jsonWire(base, path, text, type) };
  });
};

/** Multipart forms that are broken as forms. */
const multipartClass: Build = (base) => {
  const path = withQuery(pathOf(base), base.query);
  const parts = validParts(base);
  const file = (filename: string, value = 'evidence'): Part => ({ name: 'attachment_file', filename, value: Buffer.from(value), headers: ['Content-Type: text/plain'] });
  const cases: fc.Arbitrary<{ label: string; wire: Wire }> = fc.oneof(
    fc.constant({ label: 'no boundary', wire: formWire(base, path, parts, { contentType: 'multipart/form-data' }) }),
    fc.constant({ label: 'empty boundary', wire: formWire(base, path, parts, { contentType: 'multipart/form-data; boundary=' }) }),
    fc.constant({ label: 'wrong boundary', wire: formWire(base, path, parts, { contentType: 'multipart/form-data; boundary=nothere' }) }),
    fc.constant({ label: 'boundary of 200 characters', wire: formWire(base, path, parts, { boundary: 'b'.repeat(200) }) }),
    fc.double({ min: 0, max: 0.99, noNaN: true }).map((cut) => ({ label: `truncated at ${cut.toFixed(2)}`, wire: formWire(base, path, parts, { cut }) })),
    fc.constant({ label: 'no closing delimiter', wire: formWire(base, path, parts, { close: false }) }),
    fc.constant({ label: 'duplicate data_json', wire: formWire(base, path, [...parts, ...parts]) }),
    fc.constant({ label: 'part without a name', wire: formWire(base, path, [...parts, { value: Buffer.from('x') }]) }),
    fc.constant({ label: 'unknown fields', wire: formWire(base, path, [...parts, { name: 'x', value: Buffer.from('1') }, { name: '', value: Buffer.from('1') }]) }),
    fc.constant({ label: '500 fields', wire: formWire(base, path, Array.from({ length: 500 }, (_, i) => ({ name: `f${i}`, value: Buffer.from('v') }))) }),
    fc.constant({ label: 'NUL in data_json', wire: formWire(base, path, [{ name: 'data_json', value: Buffer.from(JSON.stringify({ ...validJson(base), name: 'a\u0000b', attestation_name: 'a\u0000' })) }]) }),
    fc.constant({ label: 'NUL byte in field name', wire: formWire(base, path, [...parts, { name: 'data\u0000json', value: Buffer.from('{}') }]) }),
    fc.constantFrom('a\u0000.txt', '\u0000', '名前.txt', '..%2f..%2fetc%2fpasswd', '../../etc/passwd', 'x'.repeat(2000), '', '\ud800.txt').map((filename) => ({
      label: `file named ${JSON.stringify(filename).slice(0, 40)}`,
      wire: formWire(base, path, [...parts, file(filename)]),
    })),
    fc.constant({ label: 'two attachments', wire: formWire(base, path, [...parts, file('a.txt'), file('b.txt')]) }),
    fc.constant({ label: 'data_json as a file', wire: formWire(base, path, parts.map((p) => ({ ...p, filename: 'data.json' }))) }),
    fc.constantFrom('Content-Transfer-Encoding: base64', 'Content-Type: application/json; charset=utf-16', 'Content-Type: text/plain; charset=iso-8859-1', 'Content-Encoding: gzip').map((header) => ({
      label: `part header ${header}`,
      wire: formWire(base, path, parts.map((p) => ({ ...p, headers: [header], value: header.includes('base64') ? Buffer.from(p.value.toString('base64')) : header.includes('utf-16') ? Buffer.from(p.value.toString('utf8'), 'utf16le') : p.value }))),
    })),
    fc.constant({ label: 'invalid UTF-8 in data_json', wire: formWire(base, path, [{ name: 'data_json', value: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) }]) }),
    fc.constant({ label: 'multipart/mixed', wire: formWire(base, path, parts, { contentType: 'multipart/mixed; boundary=B' }) }),
  );
  return cases;
};

const YAML_TEMPLATES: [string, string][] = [
  ['unresolved alias', 'version: 1\ntrail:\n  attestations: *nowhere\n'],
  ['alias', 'version: 1\ntrail:\n  attestations:\n    - &a {name: one, type: generic}\n    - *a\n'],
  ['merge key', 'version: 1\nbase: &b {name: one, type: generic}\ntrail:\n  attestations:\n    - <<: *b\n'],
  [
    'anchor bomb',
    'version: 1\na: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\ntrail: *h\n',
  ],
  ['deep flow nesting', 'version: 1\ntrail: ' + '['.repeat(5000) + ']'.repeat(5000) + '\n'],
  ['deep block nesting', 'version: 1\ntrail:\n' + Array.from({ length: 400 }, (_, i) => ' '.repeat(i + 2) + `k${i}:`).join('\n') + ' 1\n'],
  ['custom tag', 'version: 1\ntrail: !!js/function "function(){}"\n'],
  ['unknown local tag', 'version: !foo 1\n'],
  ['binary tag', 'version: 1\ntrail: !!binary AAAA\n'],
  ['timestamp', 'version: 2026-01-01\n'],
  ['two documents', 'version: 1\n---\nversion: 1\n'],
  ['duplicate keys', 'version: 1\nversion: 1\n'],
  ['NUL', 'version: 1\ntrail:\n  attestations:\n    - name: "a\\0b"\n      type: generic\n'],
  ['raw NUL', 'version: 1\u0000\n'],
  ['huge number', 'version: 99999999999999999999999999999\n'],
  ['version 1e400', 'version: 1e400\n'],
  ['huge key count', 'version: 1\ntrail:\n' + Array.from({ length: 20000 }, (_, i) => `  k${i}: ${i}`).join('\n') + '\n'],
  ['bad indentation', 'version: 1\n trail:\n- x\n'],
  ['only a scalar', 'hello'],
  ['empty', ''],
  ['NUL in artifact name', 'version: 1\ntrail:\n  artifacts:\n    - name: "we\\0b"\n'],
];

/** The YAML file part a route reads (the policy file on the policies route), else the template's. */
function yamlPartOf(route: RouteEntry): string {
  return routeInputs(route).form?.fileParts.find((p) => p !== 'attachment_file') ?? 'template_file';
}

/** A YAML template file on every route (only flows, trails and policies take one; the others must refuse it cleanly). */
const yamlClass: Build = (base) =>
  fc.constantFrom(...YAML_TEMPLATES).map(([label, text]) => {
    const path = withQuery(pathOf(base), base.query);
    const template: Part = { name: yamlPartOf(base.route), filename: 'template.yml', value: Buffer.from(text, 'utf8'), headers: ['Content-Type: application/x-yaml'] };
    return { label: `template: ${label}`, wire: formWire(base, path, [...validParts(base), template]) };
  });

/** Below the application: compressed bodies, the HTTP parser's refusals, oversized uploads (another branch). */
const serverClass: Build = (base) => {
  const path = withQuery(pathOf(base), base.query);
  const valid = Buffer.from(JSON.stringify(validJson(base)));
  const head = (extra: string[], bodyLength: number) =>
    [`${base.route.method} ${path} HTTP/1.1`, 'Host: localhost', 'Connection: close', ...Object.entries(base.credential).map(([k, v]) => `${k}: ${v}`), ...extra, `Content-Length: ${bodyLength}`].join('\r\n') + '\r\n\r\n';
  const encoded = (encoding: string, body: Buffer) => ({
    label: `Content-Encoding ${encoding}`,
    wire: { method: base.route.method, path, headers: { ...base.credential, 'content-type': 'application/json', 'content-encoding': encoding, 'content-length': String(body.length) }, body } as Wire,
  });
  return fc.oneof(
    fc.constant(encoded('gzip', Buffer.from('not gzip at all'))),
    fc.constant(encoded('deflate', Buffer.from([0x78, 0x9c, 0xff, 0xff]))),
    fc.constant(encoded('br', Buffer.from('not brotli'))),
    fc.constant(encoded('gzip', gzipSync(valid).subarray(0, 10))),
    fc.constant(encoded('compress', valid)),
    fc.constant(encoded('gzip', gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)))),
    fc.constant({ label: 'header of 100 kB', wire: Buffer.from(head([`X-Big: ${'h'.repeat(100_000)}`], 0)) }),
    fc.constant({ label: 'URL of 100 kB', wire: Buffer.from(`GET ${path}?q=${'u'.repeat(100_000)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`) }),
    fc.constant({ label: 'malformed request line', wire: Buffer.from(`${base.route.method}  ${path} HTTP/9.9\r\nHost: x\r\n\r\n`) }),
    fc.constant({ label: 'bad chunked body', wire: Buffer.from(head(['Transfer-Encoding: chunked'], 0).replace(/Content-Length: 0\r\n/, '') + 'zz\r\nxx\r\n0\r\n\r\n') }),
    fc.constant({ label: 'NUL in a header', wire: Buffer.from(head(['X-Odd: a\u0000b'], 0)) }),
    fc.constant({ label: '40 MB body', wire: { method: base.route.method, path, headers: { ...base.credential, 'content-type': 'application/json', 'content-length': String(40 * 1024 * 1024) }, body: Buffer.alloc(40 * 1024 * 1024, 0x20) } as Wire }),
  );
};

const CLASSES: { name: string; build: Build; pending?: boolean }[] = [
  { name: 'path segments', build: pathClass },
  { name: 'query', build: queryClass },
  { name: 'JSON fields', build: fieldClass },
  { name: 'JSON text', build: jsonTextClass },
  { name: 'multipart', build: multipartClass },
  { name: 'YAML templates', build: yamlClass },
  { name: 'server level', build: serverClass, pending: SERVER_LEVEL_CLASSES_PENDING },
];

// ---------------------------------------------------------------------------------------------------------------

describe('malformed requests on every route', () => {
  let t: TestApp;
  let w: World;
  let routes: RouteEntry[];
  let tablesWithOrg: string[];
  let otherTables: string[];

  async function seed(): Promise<World> {
    const org = await createOrg(t, { features: [...BETA_FEATURES] });
    const id = hex(3);
    const as = (req: Test) => req.set(...bearer(org.adminKey));
    const world: World = {
      org,
      orgId: '',
      flow: `flow-${id}`,
      trail: `trail-${id}`,
      attestationName: `att-${id}`,
      attestationId: '',
      controlIdentifier: `CTRL-${id}`,
      evaluationId: '',
      env: `env-${id}`,
      repoName: `owner-${id}/repo`,
      serviceAccount: `bot-${id}`,
      keyId: '',
      credentialEventId: '',
      actionNumber: 0,
      customType: `type-${id}`,
      policyName: `policy-${id}`,
      fingerprint: hex(32),
    };
    await as(t.http().put(`/api/v2/flows/${org.name}`)).send({ name: world.flow, visibility: 'private' }).expect(201);
    await as(t.http().post(`/api/v2/custom-attestation-types/${org.name}`))
      .field('data_json', JSON.stringify({ name: world.customType, evaluator: { content_type: 'jq', rules: ['.age > 21'] } }))
      .expect(201);
    await as(t.http().put(`/api/v2/trails/${org.name}/${world.flow}`)).field('data_json', JSON.stringify({ name: world.trail })).expect(201);
    await as(t.http().post(`/api/v2/attestations/${org.name}/${world.flow}/trail/${world.trail}/generic`))
      .field(
        'data_json',
        JSON.stringify({ attestation_name: world.attestationName, is_compliant: true, repo_info: { id: `r-${id}`, name: world.repoName, url: 'https://example.com/r', provider: 'github' } }),
      )
      .attach('attachment_file', Buffer.from('evidence'), 'evidence.txt')
      .expect(201);
    const list = await as(t.http().get(`/api/v2/attestations/${org.name}/${world.flow}`)).expect(200);
    world.attestationId = list.body.data[0].attestation_id;
    await as(t.http().post(`/api/v2/controls/${org.name}`)).send({ identifier: world.controlIdentifier, name: 'control' }).expect(201);
    const evaluation = await as(t.http().post(`/api/v2/evaluations/${org.name}`))
      .send({
        context: { trails: [{ flow: world.flow, trail: world.trail }] },
        policy: { files: { 'policy.rego': 'package policy\n\nallow := true\n' } },
        decision: { control: world.controlIdentifier, name: `decision-${id}`, flow: world.flow, trail: world.trail },
      })
      .expect(201);
    world.evaluationId = evaluation.body.id;
    await as(t.http().put(`/api/v2/environments/${org.name}`)).send({ name: world.env, type: 'K8S' }).expect(201);
    await as(t.http().put(`/api/v2/environments/${org.name}/${world.env}/report/K8S`))
      .send({ artifacts: [{ podName: 'p', namespace: 'n', digests: { image: world.fingerprint }, creationTimestamp: 1700000000 }] })
      .expect(201);
    await as(t.http().post(`/api/v2/artifacts/${org.name}/${world.flow}`))
      .send({ fingerprint: world.fingerprint, filename: 'image', trail_name: world.trail, template_reference_name: 'image' })
      .expect(201);
    await as(t.http().put(`/api/v2/policies/${org.name}`))
      .field('payload', JSON.stringify({ name: world.policyName }))
      .attach('policy_file', Buffer.from('_schema: https://docs.kosli.com/schemas/policy/v1\nartifacts:\n  trail-compliance:\n    required: true\n'), 'p.yaml')
      .expect(201);
    await as(t.http().post(`/api/v2/service-accounts/${org.name}`)).send({ name: world.serviceAccount, privilege: 'member' }).expect(201);
    const key = await as(t.http().post(`/api/v2/service-accounts/${org.name}/${world.serviceAccount}/api-keys`)).send({ description: 'k' }).expect(201);
    world.keyId = key.body.id;
    world.credentialEventId = (await t.dataSource.query(`SELECT e.id FROM credential_events e JOIN organizations o ON o.id = e.org_id WHERE o.name = $1 LIMIT 1`, [org.name]))[0].id;
    const action = await as(t.http().put(`/api/v2/actions/${org.name}/environments`))
      .send({ name: `act-${id}`, environments: [world.env], triggers: ['ON_COMPLIANT_ENV'], targets: [{ type: 'EMAIL', emails: ['a@example.com'] }] })
      .expect(201);
    world.actionNumber = action.body.number;
    return world;
  }

  /**
   * What the org has stored: each tenant table's rows of this org (a checksum of their contents, less the
   * columns a successful read updates), and the row count of every other table.
   */
  async function stored(): Promise<Record<string, string>> {
    const parts = [
      ...tablesWithOrg.map(
        (table) =>
          `SELECT '${table}' AS t, count(*)::text || ':' || md5(coalesce(string_agg(x, ',' ORDER BY x), '')) AS v FROM (SELECT (to_jsonb(r) - 'last_used_at')::text AS x FROM "${table}" r WHERE r.org_id = $1) s`,
      ),
      ...otherTables.map((table) => `SELECT '${table}' AS t, count(*)::text AS v FROM "${table}"`),
    ];
    const rows: { t: string; v: string }[] = await t.dataSource.query(parts.join(' UNION ALL '), [w.orgId]);
    return Object.fromEntries(rows.map((r) => [r.t, r.v]));
  }

  beforeAll(async () => {
    // Nothing may change stored data behind the requests' backs: no worker, and an evaluation is always
    // finished (its decision recorded) before create evaluation answers.
    t = await startTestApp({ ROLE: 'api', EVALUATION_WAIT_MS: '60000' });
    w = await seed();
    const [{ id }] = await t.dataSource.query('SELECT id FROM organizations WHERE name = $1', [w.org.name]);
    w.orgId = id;
    const tables: { table_name: string; has_org: boolean }[] = await t.dataSource.query(
      `SELECT c.table_name, bool_or(c.column_name = 'org_id') AS has_org FROM information_schema.columns c
         JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' GROUP BY c.table_name ORDER BY c.table_name`,
    );
    tablesWithOrg = tables.filter((x) => x.has_org).map((x) => x.table_name);
    otherTables = tables.filter((x) => !x.has_org && x.table_name !== 'migrations').map((x) => x.table_name);
    // Deleting routes last, so the resources they delete are there for every other route.
    // Routes that may remove or rename what later probes name go last: deletes and archives, then renames.
    const last = (r: RouteEntry) => (r.path.endsWith('/rename') ? 2 : r.method === 'DELETE' || r.path.endsWith('/archive') ? 1 : 0);
    routes = listRoutes(t.app).sort((a, b) => last(a) - last(b));
    // `PROPS_ROUTES=<regular expression>` probes only the routes whose `METHOD /path` matches (a quick look at a few).
    if (process.env.PROPS_ROUTES) routes = routes.filter((r) => new RegExp(process.env.PROPS_ROUTES!).test(describeRoute(r)));
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('covers every route of the route table', () => {
    expect(routes.length).toBeGreaterThan(process.env.PROPS_ROUTES ? 0 : 50);
    for (const route of routes) for (const p of route.params) expect([describeRoute(route), p, p in PATH_FILLERS]).toEqual([describeRoute(route), p, true]);
  });

  it('answers every malformed request with a 4xx and the error body, stores nothing, and never hangs', async () => {
    const failures: string[] = [];
    const credentials = (route: RouteEntry): Record<string, Record<string, string>> => {
      const valid = route.path.startsWith('/api/v2/admin/') ? t.adminToken : w.org.adminKey;
      return {
        'valid key': { authorization: `Bearer ${valid}` },
        'no credential': {},
        'bad key': { authorization: `Bearer vtk_${hex(32)}` },
        'garbage credential': { authorization: 'Basic %00%ff' },
      };
    };

    /** Sends one request and checks its answer; false (with the reason in `failures`) when it is wrong. */
    async function probe(where: string, wire: Wire | Buffer, method: string, needsCredential: boolean): Promise<Answer | null> {
      const started = Date.now();
      let answer: Answer;
      try {
        answer = Buffer.isBuffer(wire) ? await sendRaw(t.baseUrl, wire) : await send(t.baseUrl, wire);
      } catch (error) {
        failures.push(`${where}: ${(error as Error).message}`);
        return null;
      }
      if (VERBOSE) process.stdout.write(`${answer.status} ${Date.now() - started}ms ${where.slice(0, 160)}\n`);
      const problem = answerProblem(answer, method) ?? (needsCredential && answer.status < 400 ? `status ${answer.status} without a valid credential` : null);
      if (problem) {
        failures.push(`${where}: ${problem}`);
        return null;
      }
      return answer;
    }

    let baseline = await stored();
    const changedSince = async (where: string): Promise<boolean> => {
      const now = await stored();
      const changed = Object.keys(now).filter((k) => now[k] !== baseline[k]);
      baseline = now;
      if (changed.length) failures.push(`${where}: refused, yet stored data changed (${changed.join(', ')})`);
      return changed.length > 0;
    };

    for (const route of routes.filter((r) => !ONLY || ONLY.test(describeRoute(r)))) {
      const bodyFor = VALID_BODIES[`${route.method} ${route.path}`];
      const creds = credentials(route);
      const segments: Record<string, string> = {};
      for (const p of route.params) segments[p] = encodeURIComponent(PATH_FILLERS[p](w));
      const baseWith = (credential: Record<string, string>): Base => ({
        route,
        world: w,
        segments,
        query: '',
        body: bodyFor ? bodyFor(w) : route.method === 'GET' || route.method === 'DELETE' ? null : { kind: 'json', value: {} },
        credential,
      });
      for (const cls of CLASSES) {
        if (cls.pending) continue;
        const seed = seedOf(`${describeRoute(route)} ${cls.name}`);
        // Built once per credential: some generators hold large constant bodies.
        const built = new Map<string, ReturnType<Build>>();
        const generatorFor = (name: string) => {
          if (!built.has(name)) built.set(name, cls.build(baseWith(creds[name])).map((c) => ({ ...c, label: `${name}, ${c.label}` })));
          return built.get(name)!;
        };
        const withCredential = (names: string[]) => fc.constantFrom(...names).chain(generatorFor);
        const before = failures.length;

        // With a valid key, requests reach the validators: each refused one must leave the stored data as it was
        // (a request that succeeds, say a mutation that is still valid, moves the baseline).
        const authenticated = await fc.check(
          fc.asyncProperty(withCredential(['valid key']), async ({ label, wire }) => {
            const where = `${describeRoute(route)} [${cls.name}] ${label}`;
            const answer = await probe(where, wire, route.method, false);
            if (!answer) {
              baseline = await stored(); // so that what this request did is not blamed on the next ones
              return false;
            }
            if (answer.status < 300) {
              baseline = await stored();
              return true;
            }
            return !(await changedSince(where));
          }),
          { numRuns: RUNS, seed, endOnFailure: true },
        );
        // Without one, every request is refused (checked once per batch: nothing may have been stored).
        const anonymous = await fc.check(
          fc.asyncProperty(withCredential(['no credential', 'bad key', 'garbage credential']), async ({ label, wire }) =>
            Boolean(await probe(`${describeRoute(route)} [${cls.name}] ${label}`, wire, route.method, !route.policy.isPublic)),
          ),
          { numRuns: Math.max(1, Math.round(RUNS / 2)), seed: seed + 1, endOnFailure: true },
        );
        await changedSince(`${describeRoute(route)} [${cls.name}] requests without a valid credential`);
        for (const result of [authenticated, anonymous]) {
          if (result.failed && failures.length === before) failures.push(`${describeRoute(route)} [${cls.name}]: ${String(result.errorInstance)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, Math.max(900_000, RUNS * 45_000));
});
