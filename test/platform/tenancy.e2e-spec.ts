import { randomBytes } from 'node:crypto';
import type { Response, Test } from 'supertest';
import { BETA_FEATURES } from '../../src/common/auth/principal';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { describeRoute, fillPath, httpMethod, listRoutes, queryFields, RouteEntry } from '../support/route-table';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';

const HERE = 'test/platform/tenancy.e2e-spec.ts';
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** One organization with one of everything, named so that any of it is recognisable in a response. */
interface World {
  org: TestOrg;
  flow: string;
  trail: string;
  attestationName: string;
  attestationId: string;
  fingerprint: string;
  /** The commit the artifact was built from. */
  commitSha: string;
  repoName: string;
  controlIdentifier: string;
  evaluationId: string;
  /** The provider's id of the repo. */
  repoExternalId: string;
  /** A K8S environment with `lastSnapshot` snapshots, tagged `tenancy=<tagValue>` (as is the repo). */
  env: string;
  lastSnapshot: number;
  tagValue: string;
  /** The trail's latest moment number. */
  lastMoment: number;
  serviceAccount: string;
  /** A key of that service account. */
  keyId: string;
  /** A credential event of this org (`GET /credential-events/{org}/{event_id}`). */
  credentialEventId: string;
  /** The number of the org's last action, an environment action. */
  actionNumber: number;
  /** The commit its attestation names (`git_commit_info.sha1`). */
  commit: string;
  /** Its SonarQube webhook. */
  hookUid: string;
  /** A custom attestation type (archived by the write probes), and one the probes' custom attestations use. */
  customType: string;
  customTypeInUse: string;
  /** A policy attached to `env`. */
  policyName: string;
  /** The evidence log's leaf hash (hex) of that attestation. */
  leafHash: string;
  /** Strings that exist only in this org's stored data: no request of another org ever contains them. */
  secrets: string[];
}

/** The names and ids a request can carry, by path parameter name. Add one when a route has a new parameter. */
const PATH_FILLERS: Record<string, (w: World) => string> = {
  flow: (w) => w.flow,
  flow_name: (w) => w.flow,
  trail: (w) => w.trail,
  trail_name: (w) => w.trail,
  attestation_id: (w) => w.attestationId,
  attestation_name: (w) => w.attestationName,
  name: (w) => w.repoName, // GET /repos/{org}/{name}
  expression: (w) => String(w.lastMoment), // a moment expression: this trail's latest moment number
  identifier: (w) => w.controlIdentifier, // /controls/{org}/{identifier}
  id: (w) => w.evaluationId, // /evaluations/{org}/{id}
  env: (w) => w.env,
  snapshot_expression: (w) => String(w.lastSnapshot), // this environment's latest snapshot number
  resource_type: () => 'flow', // PATCH /tags/{org}/{resource_type}/{resource_id}
  resource_id: (w) => w.flow,
  service_account: (w) => w.serviceAccount,
  key_id: (w) => w.keyId,
  event_id: (w) => w.credentialEventId, // GET /credential-events/{org}/{event_id}
  number: (w) => String(w.actionNumber), // an action number: this org's last one
  notification_number: (w) => String(w.actionNumber),
  fingerprint: (w) => w.fingerprint, // GET /attestations/{org}/{flow}/artifact/{fingerprint}/{name}
  hook_uid: (w) => w.hookUid, // a SonarQube webhook of this org (also probes the LaunchDarkly hook routes: 404 there)
  custom_attestation_type_name: (w) => w.customType,
  policy_name: (w) => w.policyName, // GET /policies/{org}/{policy_name}
  version: () => '1', // .../versions/{version} of this org's control and policy: version 1 of each exists
  commit_sha: (w) => w.commitSha,
  search_value: (w) => w.fingerprint, // GET /search/{org}/sha/{search_value}
  repo: (w) => w.repoName, // GET /repos/{org}/live-artifacts/{repo}
  mode: () => 'enforce', // the admission webhook's settings as path segments
  namespaces: () => 'probe',
};
/** Path parameters that name nothing of an org (a version number): always this org's value, never swapped. */
const NEUTRAL_PATH = new Set(['version', 'mode', 'namespaces']);
/** The same for query string fields. */
const QUERY_FILLERS: Record<string, (w: World) => string> = {
  flow: (w) => w.flow,
  attestation_id: (w) => w.attestationId,
  fingerprint: (w) => w.fingerprint,
  search_by_name: (w) => w.flow,
  control: (w) => w.controlIdentifier, // evaluations by the control they decide
  name: (w) => w.env, // environments (name contains) and repos (exact name)
  search: (w) => w.repoName, // repos and controls (by identifier or name)
  repo_id: (w) => w.repoExternalId,
  tag: (w) => `tenancy:${w.tagValue}`,
  snappish1: (w) => w.env, // GET /env-diff/{org}: an environment (its latest snapshot)
  snappish2: (w) => w.env,
  commit_list: (w) => w.commit, // list_attestations_for_criteria: the commit this org's attestation names
  flow_name: (w) => w.flow,
  attestation_name: (w) => w.attestationName,
  environment_name: (w) => w.env,
  policy_name: (w) => w.policyName,
  repo_name: (w) => w.repoName,
  repo_names: (w) => w.repoName, // GET /environments/{org}/{env}/auditlog
  flow_names: (w) => w.flow,
  trail: (w) => w.trail,
  id: (w) => w.attestationId, // GET /log/{org}/lookup (with kind=attestation)
  leaf_hash: (w) => w.leafHash, // GET /log/{org}/proof/inclusion
};
/** Required query fields that name nothing of an org, and the value a probe sends in them. */
const NEUTRAL_QUERY: Record<string, string> = { kind: 'attestation', tree_size: '1', start: '0', limit: '10', first: '1', second: '1' };
/** Query fields that name nothing of an org: paging, time windows, switches. */
const NOT_IDENTIFIERS = new Set([
  'page',
  'per_page',
  'from_timestamp',
  'to_timestamp',
  'case_sensitive',
  // No route sets flow or control tags yet; give them fillers when one does.
  'flow_tag',
  'archived',
  'status',
  'type',
  'space_id',
  'sort',
  'sort_direction',
  'provider',
  'interval',
  'reverse',
  'from',
  'to',
  'attestation_type',
  'version', // a custom attestation type's version number
  // the admission webhook's settings
  'mode',
  'exempt_namespace',
  'branch',
  'start',
  'end',
  'start_ts',
  'end_ts',
  'event_types',
  'covered', // a control's coverage: covered or not
  'start-ts',
  'end-ts',
  // the evidence log: positions and sizes in the org's own log, and a kind
  'size',
  'start',
  'limit',
  'index',
  'tree_size',
  'first',
  'second',
  'kind',
]);
/** Query fields a route refuses together (400), left out of the probe that sends every field at once. */
const EXCLUSIVE_QUERY: Record<string, string[]> = {
  'GET /api/v2/asserts/:org/fingerprint/:fingerprint': ['policy_name'], // environment_name or policy_name
};
/** A valid body for each write route, so that a 404 comes from the lookup and not from validation. */
const PROBE_FINGERPRINT = hex(32);
const REPORT_TYPES = ['S3', 'K8S', 'ECS', 'docker', 'server', 'lambda', 'azure-apps'];
/** A pod review whose image names the probe fingerprint, for the admission routes. */
const PROBE_REVIEW = {
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid: 'tenancy-probe',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace: 'probe',
    operation: 'CREATE',
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probe' }, spec: { containers: [{ name: 'c', image: `probe@sha256:${PROBE_FINGERPRINT}` }] } },
  },
};

const WRITE_BODIES: Record<string, (req: Test) => Test> = {
  ...Object.fromEntries(REPORT_TYPES.map((type) => [`PUT /api/v2/environments/:org/:env/report/${type}`, (req: Test) => req.send({ artifacts: [] })])),
  'PUT /api/v2/environments/:org/:env/join': (req) => req.send({ physical_env_name: 'tenancy-probe' }),
  'PATCH /api/v2/tags/:org/:resource_type/:resource_id': (req) => req.send({ set_tags: { probe: 'tenancy' } }),
  'PUT /api/v2/trails/:org/:flow': (req) => req.field('data_json', JSON.stringify({ name: 'tenancy-probe' })),
  'POST /api/v2/artifacts/:org/:flow': (req) =>
    req.send({ fingerprint: PROBE_FINGERPRINT, filename: 'probe.bin', trail_name: 'tenancy-probe', template_reference_name: 'probe' }),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/generic': (req) =>
    req.field('data_json', JSON.stringify({ attestation_name: 'tenancy-probe', is_compliant: true })),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/junit': (req) => req.field('data_json', JSON.stringify({ attestation_name: 'tenancy-probe', junit_results: [{ name: 's', failures: 0, errors: 0, skipped: 0, total: 1, duration: 0.1 }] })),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/snyk': (req) => req.field('data_json', JSON.stringify({ attestation_name: 'tenancy-probe', snyk_results: { tool: { name: 'SnykCode', version: '1' }, results: [] } })),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/sonar': (req) => req.field('data_json', JSON.stringify({ attestation_name: 'tenancy-probe', sonar_results: { analysedAt: 'a', revision: 'r', project: { key: 'k', url: 'u' } } })),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/jira': (req) => req.field('data_json', JSON.stringify({ attestation_name: 'tenancy-probe', jira_results: [] })),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/pull_request': (req) => req.field('data_json', JSON.stringify({ attestation_name: 'tenancy-probe', git_provider: 'github', pull_requests: [] })),
  'PUT /api/v2/controls/:org/:identifier': (req) => req.send({ name: 'tenancy-probe' }),
  'POST /api/v2/controls/:org/:identifier/archive': (req) => req,
  'POST /api/v2/controls/:org/:identifier/unarchive': (req) => req,
  'POST /api/v2/evaluations/:org/:id/replay': (req) => req,
  'PATCH /api/v2/service-accounts/:org/:service_account': (req) => req.send({ description: 'tenancy-probe' }),
  'DELETE /api/v2/service-accounts/:org/:service_account': (req) => req,
  'POST /api/v2/service-accounts/:org/:service_account/api-keys': (req) => req.send({ description: 'tenancy-probe' }),
  'DELETE /api/v2/service-accounts/:org/:service_account/api-keys/:key_id': (req) => req,
  'POST /api/v2/service-accounts/:org/:service_account/api-keys/:key_id/rotate': (req) => req.send({}),
  'DELETE /api/v2/api-keys/:org/:key_id': (req) => req,
  'POST /api/v2/api-keys/:org/:key_id/rotate': (req) => req.send({}),
  'DELETE /api/v2/actions/:org/:number': (req) => req,
  'POST /api/v2/integrations/:org/sonar': (req) => req.send({ flow_name_prefix: 'tenancy-probe' }),
  'DELETE /api/v2/integrations/:org/sonar/:hook_uid': (req) => req,
  'POST /api/v2/integrations/:org/launch-darkly': (req) => req.send({ flow_name: 'tenancy-probe' }),
  'DELETE /api/v2/integrations/:org/launch-darkly/:hook_uid': (req) => req,
  'PUT /api/v2/custom-attestation-types/:org/:custom_attestation_type_name/archive': (req) => req,
  'DELETE /api/v2/organizations/:org/environments_notifications/:notification_number': (req) => req,
  'PUT /api/v2/allowlists/:org/:env': (req) => req.send({ artifact_name: 'probe', artifact_fingerprint: PROBE_FINGERPRINT, description: 'tenancy-probe' }),
  // The admission webhook, with its settings in the query or the path: the same review.
  'POST /api/v2/admission/:org/:env': (req) => req.send(PROBE_REVIEW),
  'POST /api/v2/admission/:org/:env/:mode': (req) => req.send(PROBE_REVIEW),
  'POST /api/v2/admission/:org/:env/:mode/exempt/*namespaces': (req) => req.send(PROBE_REVIEW),
  'PUT /api/v2/organizations/:org/environments_notifications/:notification_number': (req) =>
    req.send({ name: 'tenancy-probe', environments: ['tenancy-probe'], triggers: ['ON_STARTED_ARTIFACT'], targets: [{ type: 'EMAIL', emails: ['probe@example.com'] }] }),
  'PUT /api/v2/flows/:org/:flow/archive': (req) => req,
  'PUT /api/v2/flows/:org/:flow/rename': (req) => req.send({ new_name: 'tenancy-probe-renamed' }),
  'PUT /api/v2/environments/:org/:env/archive': (req) => req,
  'PUT /api/v2/environments/:org/:env/rename': (req) => req.send({ new_name: 'tenancy-probe-renamed' }),
};
/** Bodies that name an org's own resources (filled per request, for the org whose key sends it). */
const OWN_WRITE_BODIES: Record<string, (req: Test, own: World) => Test> = {
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/system': (req, own) =>
    req.field(
      'data_json',
      JSON.stringify({ type_name: 'decision', attestation_name: 'tenancy-probe', control: own.controlIdentifier, attestation_data: { is_compliant: true } }),
    ),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/custom': (req, own) =>
    req.field('data_json', JSON.stringify({ type_name: own.customTypeInUse, attestation_name: 'tenancy-probe', attestation_data: { probe: true } })),
  'POST /api/v2/attestations/:org/:flow_name/trail/:trail_name/override': (req, own) =>
    req.send({ attestation_name: own.attestationName, reason: 'tenancy-probe', new_compliance_status: true, original_attestation_type: 'generic' }),
  'POST /api/v2/environments/:org/:env/policies': (req, own) => req.send({ policy_names: [own.policyName] }),
  'DELETE /api/v2/environments/:org/:env/policies': (req, own) => req.send({ policy_names: [own.policyName] }),
};

/**
 * Tenancy over every org-scoped route of the route table, so a route added later is covered without being
 * listed: (a) another org's key on this org's paths is 403 and shows nothing; (b) this org's key with another
 * org's names and ids in the path or query finds nothing (404 or an empty list) and shows nothing of it, and
 * writes never touch it.
 */
describe('tenancy over every org-scoped route', () => {
  let t: TestApp;
  let a: World;
  let b: World;
  let routes: RouteEntry[];

  const raw = (req: Test) =>
    req.buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  /** Everything a client sees of a response, as text. */
  const seen = (res: Response) => `${JSON.stringify(res.headers)}\n${(res.body as Buffer).toString('utf8')}`;
  const json = (res: Response) => {
    try {
      return JSON.parse((res.body as Buffer).toString('utf8'));
    } catch {
      return undefined;
    }
  };
  const leaked = (res: Response, strings: string[]) => strings.filter((s) => seen(res).includes(s));

  async function seed(features: string[], extraAttestations: number, reports: number, flowActions: number): Promise<World> {
    const org = await createOrg(t, { features });
    const id = hex(4);
    const w: World = {
      org,
      flow: `flow-${id}-${hex(3)}`,
      trail: `trail-${id}-${hex(3)}`,
      attestationName: `att-${id}-${hex(3)}`,
      attestationId: '',
      leafHash: '',
      fingerprint: hex(32),
      commit: hex(20),
      hookUid: '',
      commitSha: hex(20),
      repoName: `owner-${id}/repo-${hex(3)}`,
      controlIdentifier: `CTRL-${id}-${hex(3)}`,
      evaluationId: '',
      repoExternalId: String(Date.now()) + hex(2),
      env: `env-${id}-${hex(3)}`,
      lastSnapshot: 0,
      tagValue: `tag-${id}-${hex(3)}`,
      lastMoment: 0,
      serviceAccount: `bot-${id}-${hex(3)}`,
      keyId: '',
      credentialEventId: '',
      actionNumber: 0,
      customType: `type-${id}-${hex(3)}`,
      customTypeInUse: `type-${id}-${hex(3)}`,
      policyName: `policy-${id}-${hex(3)}`,
      secrets: [org.name, org.adminEmail],
    };
    const secret = (what: string) => {
      const s = `secret-${what}-${id}-${hex(4)}`;
      w.secrets.push(s);
      return s;
    };
    const as = (req: Test) => req.set(...bearer(org.adminKey));
    await as(t.http().put(`/api/v2/flows/${org.name}`))
      .send({ name: w.flow, description: secret('flow'), visibility: 'private', repo_url: `https://${secret('flowrepo')}.example` })
      .expect(201);
    await as(t.http().put(`/api/v2/trails/${org.name}/${w.flow}`))
      .field('data_json', JSON.stringify({ name: w.trail, description: secret('trail'), user_data: { note: secret('trailnote') } }))
      .expect(201);
    await as(t.http().post(`/api/v2/artifacts/${org.name}/${w.flow}`))
      .send({ fingerprint: w.fingerprint, filename: secret('artifact'), trail_name: w.trail, template_reference_name: 'web', git_commit: w.commitSha })
      .expect(201);
    const data = {
      attestation_name: w.attestationName,
      is_compliant: true,
      description: secret('attestation'),
      user_data: { note: secret('attnote') },
      git_commit_info: { sha1: w.commit },
      repo_info: { id: w.repoExternalId, name: w.repoName, url: `https://${secret('repourl')}.example`, provider: 'github', description: secret('repo') },
    };
    await as(t.http().post(`/api/v2/attestations/${org.name}/${w.flow}/trail/${w.trail}/generic`))
      .field('data_json', JSON.stringify(data))
      .attach('attachment_file', Buffer.from(secret('attachment')), `${secret('file')}.txt`)
      .expect(201);
    for (let i = 0; i < extraAttestations; i++) {
      await as(t.http().post(`/api/v2/attestations/${org.name}/${w.flow}/trail/${w.trail}/generic`))
        .field('data_json', JSON.stringify({ attestation_name: `more-${i}`, is_compliant: true }))
        .expect(201);
    }
    await as(t.http().post(`/api/v2/controls/${org.name}`)).send({ identifier: w.controlIdentifier, name: secret('control') }).expect(201);
    for (const name of [w.customType, w.customTypeInUse]) {
      await as(t.http().post(`/api/v2/custom-attestation-types/${org.name}`))
        .field('data_json', JSON.stringify({ name, description: secret('type'), evaluator: { content_type: 'jq', rules: ['. != null'] } }))
        .attach('type_schema', Buffer.from(JSON.stringify({ type: 'object', title: secret('schema') })), 'schema.json')
        .expect(201);
    }
    const evaluation = await as(t.http().post(`/api/v2/evaluations/${org.name}`))
      .send({
        context: { trails: [{ flow: w.flow, trail: w.trail }] },
        policy: { files: { 'policy.rego': `package policy\n\nallow := true\n\nnote := "${secret('policy')}"\n` } },
        decision: { control: w.controlIdentifier, name: `decision-${id}`, flow: w.flow, trail: w.trail },
      })
      .expect(201);
    expect(evaluation.body).toMatchObject({ status: 'completed' });
    w.evaluationId = evaluation.body.id;
    await as(t.http().put(`/api/v2/environments/${org.name}`)).send({ name: w.env, type: 'K8S', description: secret('env') }).expect(201);
    for (let i = 0; i < reports; i++) {
      const pod = { podName: secret('pod'), namespace: secret('ns'), digests: { [secret('image')]: w.fingerprint }, creationTimestamp: 1700000000 + i };
      await as(t.http().put(`/api/v2/environments/${org.name}/${w.env}/report/K8S`)).send({ artifacts: [pod] }).expect(201);
    }
    // A policy (its description and content secret) attached to the environment: one more snapshot.
    await as(t.http().put(`/api/v2/policies/${org.name}`))
      .field('payload', JSON.stringify({ name: w.policyName, description: secret('policy-description') }))
      .attach('policy_file', Buffer.from(`_schema: https://docs.kosli.com/schemas/policy/v1\n# ${secret('policy-yaml')}\nartifacts:\n  provenance:\n    required: true\n`), 'p.yaml')
      .expect(201);
    await as(t.http().post(`/api/v2/environments/${org.name}/${w.env}/policies`)).send({ policy_names: [w.policyName] }).expect(200);
    await as(t.http().put(`/api/v2/allowlists/${org.name}/${w.env}`))
      .send({ artifact_name: 'web', artifact_fingerprint: w.fingerprint, description: secret('allowlist') })
      .expect(201);
    w.lastSnapshot = reports + 2;
    await as(t.http().patch(`/api/v2/tags/${org.name}/env/${w.env}`)).send({ set_tags: { tenancy: w.tagValue } }).expect(200);
    w.secrets.push(w.tagValue);
    const repo = await as(t.http().get(`/api/v2/repos/${org.name}/${encodeURIComponent(w.repoName)}`)).expect(200);
    await as(t.http().patch(`/api/v2/tags/${org.name}/repo/${repo.body.id}`)).send({ set_tags: { tenancy: w.tagValue } }).expect(200);
    const list = await as(t.http().get(`/api/v2/attestations/${org.name}/${w.flow}`)).expect(200);
    w.attestationId = list.body.data.find((x: any) => x.attestation_name === w.attestationName).attestation_id;
    const logged = await t.http().get(`/api/v2/log/${org.name}/lookup`).query({ kind: 'attestation', id: w.attestationId }).set(...bearer(org.adminKey)).expect(200);
    w.leafHash = Buffer.from(logged.body.leaf_hash, 'base64').toString('hex');
    const trail = await as(t.http().get(`/api/v2/trails/${org.name}/${w.flow}/${w.trail}`)).expect(200);
    w.lastMoment = trail.body.last_moment;
    await as(t.http().post(`/api/v2/service-accounts/${org.name}`))
      .send({ name: w.serviceAccount, description: secret('bot'), privilege: 'member' })
      .expect(201);
    const key = await as(t.http().post(`/api/v2/service-accounts/${org.name}/${w.serviceAccount}/api-keys`))
      .send({ description: secret('key') })
      .expect(201);
    w.keyId = key.body.id;
    w.credentialEventId = (await t.dataSource.query(`SELECT e.id FROM credential_events e JOIN organizations o ON o.id = e.org_id WHERE o.name = $1 LIMIT 1`, [org.name]))[0].id;
    // Actions: e-mail targets (nothing is sent over a network); the last one an environment action.
    const target = () => [{ type: 'EMAIL', emails: [`${secret('mail')}@example.com`] }];
    for (let i = 0; i < flowActions; i++) {
      await as(t.http().put(`/api/v2/actions/${org.name}/flows`))
        .send({ name: secret('flow-action'), flows: [w.flow], triggers: ['ON_ATTESTATION'], targets: target() })
        .expect(201);
    }
    const env = await as(t.http().put(`/api/v2/actions/${org.name}/environments`))
      .send({ name: secret('env-action'), environments: [secret('env')], triggers: ['ON_COMPLIANT_ENV'], targets: target() })
      .expect(201);
    w.actionNumber = env.body.number;
    const hook = await as(t.http().post(`/api/v2/integrations/${org.name}/sonar`)).send({ flow_name_prefix: secret('hook').slice(0, 60) }).expect(201);
    w.hookUid = hook.body.hook_uid;
    w.secrets.push(hook.body.secret);
    const ldHook = await as(t.http().post(`/api/v2/integrations/${org.name}/launch-darkly`)).send({ flow_name: secret('ld-flow').slice(0, 60) }).expect(201);
    w.secrets.push(ldHook.body.secret, ldHook.body.hook_uid);
    return w;
  }

  /** All of an org's data as its own admin reads it, to compare before and after the other org's writes. */
  async function snapshot(w: World) {
    const get = async (path: string) => (await t.http().get(path).set(...bearer(w.org.adminKey)).expect(200)).body;
    return {
      flows: await get(`/api/v2/flows/${w.org.name}`),
      trails: await get(`/api/v2/trails/${w.org.name}`),
      trail: await get(`/api/v2/trails/${w.org.name}/${w.flow}/${w.trail}`),
      attestations: await get(`/api/v2/attestations/${w.org.name}/${w.flow}`),
      repo: await get(`/api/v2/repos/${w.org.name}/${encodeURIComponent(w.repoName)}`),
      control: await get(`/api/v2/controls/${w.org.name}/${w.controlIdentifier}`),
      evaluations: await get(`/api/v2/evaluations/${w.org.name}`),
      repos: await get(`/api/v2/repos/${w.org.name}`),
      environments: await get(`/api/v2/environments/${w.org.name}`),
      snapshot: await get(`/api/v2/snapshots/${w.org.name}/${w.env}/latest`),
      serviceAccounts: await get(`/api/v2/service-accounts/${w.org.name}`),
      keys: await get(`/api/v2/service-accounts/${w.org.name}/${w.serviceAccount}/api-keys`),
      actions: await get(`/api/v2/actions/${w.org.name}`),
      customTypes: await get(`/api/v2/custom-attestation-types/${w.org.name}`),
      customType: await get(`/api/v2/custom-attestation-types/${w.org.name}/${w.customType}`),
      policies: await get(`/api/v2/policies/${w.org.name}`),
      allowlists: await get(`/api/v2/allowlists/${w.org.name}`),
      launchDarklyHooks: await get(`/api/v2/integrations/${w.org.name}/launch-darkly`),
    };
  }

  interface Probe {
    label: string;
    path: string;
    query: Record<string, string>;
    /** The other org's names and ids this request carries (a 404 may echo them). */
    carried: string[];
  }

  /**
   * Requests with this org (`own`) in the path and the other org's (`foreign`) name or id in one place at a
   * time, the other places holding this org's own values, and then in every place at once.
   */
  function probes(route: RouteEntry, own: World, foreign: World): Probe[] {
    const params = route.params.filter((p) => p !== 'org');
    for (const p of params) {
      if (!PATH_FILLERS[p]) throw new Error(`${describeRoute(route)}: no filler for path parameter '${p}'; add one to PATH_FILLERS in ${HERE}`);
    }
    const fields = queryFields(route).filter((f) => !NOT_IDENTIFIERS.has(f.name));
    for (const f of fields) {
      if (!QUERY_FILLERS[f.name]) {
        throw new Error(
          `${describeRoute(route)}: no filler for query field '${f.name}'; add one to QUERY_FILLERS (or NOT_IDENTIFIERS) in ${HERE}`,
        );
      }
    }
    const build = (label: string, foreignPlaces: Set<string>): Probe => {
      const carried: string[] = [];
      const value = (place: string, fill: (w: World) => string) => {
        if (!foreignPlaces.has(place)) return fill(own);
        const carriedValue = fill(foreign);
        carried.push(carriedValue);
        // a `key:value` tag filter carries the tag's value too, which a list's page links echo back
        if (place === 'query:tag') carried.push(carriedValue.slice(carriedValue.indexOf(':') + 1));
        return carriedValue;
      };
      const path = fillPath(route, (p) => (p === 'org' ? own.org.name : value(`path:${p}`, PATH_FILLERS[p])), HERE);
      const query: Record<string, string> = {};
      for (const f of fields) {
        if (foreignPlaces.has(`query:${f.name}`) || f.required) query[f.name] = value(`query:${f.name}`, QUERY_FILLERS[f.name]);
      }
      for (const f of queryFields(route)) if (f.required && NEUTRAL_QUERY[f.name] !== undefined) query[f.name] = NEUTRAL_QUERY[f.name];
      return { label, path, query, carried };
    };
    const places = [...params.filter((p) => !NEUTRAL_PATH.has(p)).map((p) => `path:${p}`), ...fields.map((f) => `query:${f.name}`)];
    if (!places.length) return [];
    const single = places.map((place) => build(`other org's ${place}`, new Set([place])));
    const exclusive = new Set((EXCLUSIVE_QUERY[describeRoute(route)] ?? []).map((f) => `query:${f}`));
    return places.length > 1 ? [...single, build('all of the other org', new Set(places.filter((p) => !exclusive.has(p))))] : single;
  }

  /** A list with nothing in it, in any of the API's list shapes. */
  const isEmptyList = (body: any) =>
    (Array.isArray(body) && body.length === 0) ||
    (body && Array.isArray(body.data) && body.data.length === 0 && (body.pagination?.total ?? 0) === 0) ||
    // the reference's paged lists: repos, environments, controls
    (body && Array.isArray(body.controls) && body.controls.length === 0 && body.total_count === 0) ||
    (body && Array.isArray(body.repos) && body.repos.length === 0 && body.total_count === 0) ||
    (body && Array.isArray(body.environments) && body.environments.length === 0 && body.total_count === 0) ||
    // list_attestations_for_criteria: each commit asked for, with nothing under it
    (body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length > 0 && Object.values(body).every((v) => Array.isArray(v) && v.length === 0)) ||
    (body && Array.isArray(body.builds) && body.builds.length === 0 && body.total_count === 0);

  /** A CSV answer (the audit log) with its header line and no row. */
  const isEmptyCsv = (res: Response) =>
    /^text\/csv/.test(String(res.headers['content-type'])) && /^[^\r\n]*\r\n$/.test((res.body as Buffer).toString('utf8'));

  beforeAll(async () => {
    t = await startTestApp();
    const features = [...BETA_FEATURES];
    a = await seed(features, 0, 1, 1);
    // b's trail has more moments than a's, so b's latest moment number does not exist in a's trail; the same
    // for b's environment's snapshots and for its last action's number.
    b = await seed(features, 3, 3, 2);
    expect(b.lastMoment).toBeGreaterThan(a.lastMoment);
    expect(b.lastSnapshot).toBeGreaterThan(a.lastSnapshot);
    expect(b.actionNumber).toBeGreaterThan(a.actionNumber);
    routes = listRoutes(t.app).filter((r) => r.policy.scope === 'org-scoped');
  });
  afterAll(() => t.close());

  it('(a) the other org admin key on every org-scoped route of this org, with its real names: 403, nothing shown', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const path = fillPath(route, (p) => (p === 'org' ? a.org.name : PATH_FILLERS[p]?.(a)), `PATH_FILLERS in ${HERE}`);
      const query = Object.fromEntries(
        queryFields(route)
          .filter((f) => QUERY_FILLERS[f.name])
          .map((f) => [f.name, QUERY_FILLERS[f.name](a)]),
      );
      const res = await raw(t.http()[httpMethod(route)](path).query(query).set(...bearer(b.org.adminKey)));
      const body = json(res);
      if (res.status !== 403) failures.push(`${describeRoute(route)}: expected 403, got ${res.status}`);
      else if (body?.message !== "You don't have permission to access this resource" || body?.errors !== null) {
        failures.push(`${describeRoute(route)}: unexpected 403 body ${JSON.stringify(body)}`);
      }
      const shown = leaked(res, [...a.secrets.filter((s) => s !== a.org.name), a.attestationId, a.fingerprint]);
      if (shown.length) failures.push(`${describeRoute(route)}: shows ${shown.join(', ')}`);
    }
    expect(failures).toEqual([]);
    expect(routes.length).toBeGreaterThanOrEqual(13);
  });

  it("(b) this org's key with the other org's names and ids on every org-scoped read route: nothing found, nothing shown", async () => {
    const failures: string[] = [];
    let probed = 0;
    for (const route of routes.filter((r) => r.method === 'GET')) {
      for (const probe of probes(route, a, b)) {
        probed++;
        const res = await raw(t.http().get(probe.path).query(probe.query).set(...bearer(a.org.adminKey)));
        const where = `${describeRoute(route)} with the ${probe.label} (${probe.path} ${JSON.stringify(probe.query)})`;
        if (res.status !== 404 && !(res.status === 200 && (isEmptyList(json(res)) || isEmptyCsv(res)))) {
          failures.push(`${where}: expected 404 or an empty list, got ${res.status} ${seen(res).slice(-300)}`);
        }
        const forbidden = [...b.secrets, b.flow, b.trail, b.attestationName, b.attestationId, b.fingerprint, b.repoName, b.env, b.controlIdentifier, b.evaluationId, b.serviceAccount, b.keyId, b.policyName];
        const shown = leaked(res, forbidden.filter((s) => !probe.carried.includes(s)));
        if (shown.length) failures.push(`${where}: shows ${shown.join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
    expect(probed).toBeGreaterThanOrEqual(15);
  });

  it("(b) this org's key with the other org's names on every org-scoped write route: the other org is untouched", async () => {
    const before = await snapshot(b);
    const failures: string[] = [];
    // Archives, then renames, last: an archived flow refuses later writes (400), a renamed name redirects them (308).
    const renamesLast = (r: RouteEntry) => (r.path.endsWith('/rename') ? 2 : r.path.endsWith('/archive') ? 1 : 0);
    for (const route of routes.filter((r) => r.method !== 'GET').sort((x, y) => renamesLast(x) - renamesLast(y))) {
      const list = probes(route, a, b);
      if (!list.length) continue; // only :org in the path: nothing of another org to name
      const ownBody = OWN_WRITE_BODIES[describeRoute(route)];
      const body = WRITE_BODIES[describeRoute(route)] ?? (ownBody && ((req: Test) => ownBody(req, a)));
      if (!body) throw new Error(`${describeRoute(route)}: no request body for it; add one to WRITE_BODIES in ${HERE}`);
      for (const probe of list) {
        const req = t.http()[httpMethod(route)](probe.path).query(probe.query).set(...bearer(a.org.adminKey));
        const res = await raw(body(req));
        const where = `${describeRoute(route)} with the ${probe.label} (${probe.path})`;
        // Names are per org: a write either finds nothing (404) or acts on this org's own namespace.
        if (res.status !== 404 && (res.status < 200 || res.status > 299)) failures.push(`${where}: got ${res.status} ${seen(res).slice(-300)}`);
        const forbidden = [...b.secrets, b.flow, b.trail, b.attestationName, b.attestationId, b.fingerprint, b.repoName, b.env, b.controlIdentifier, b.evaluationId, b.serviceAccount, b.keyId];
        const shown = leaked(res, forbidden.filter((s) => !probe.carried.includes(s)));
        if (shown.length) failures.push(`${where}: shows ${shown.join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot(b)).toEqual(before);
  });

  it('the seeded data is really there for its own org (so the checks above can fail)', async () => {
    for (const w of [a, b]) {
      const own = await snapshot(w);
      const text = JSON.stringify(own);
      for (const s of [w.flow, w.trail, w.attestationName, w.attestationId, w.fingerprint, w.repoName, w.controlIdentifier, w.evaluationId]) {
        expect(text).toContain(s);
      }
      for (const s of [w.flow, w.trail, w.attestationName, w.attestationId, w.fingerprint, w.repoName, w.env, w.tagValue]) expect(text).toContain(s);
      // The environment's snapshot shows the artifact's provenance: this org's flow and trail.
      expect(own.snapshot.artifacts[0].flows).toEqual([expect.objectContaining({ flow_name: w.flow, trail_name: w.trail })]);
      for (const s of [w.serviceAccount, w.keyId]) expect(text).toContain(s);
      const evidence = await raw(
        t.http().get(`/api/v2/attestations/${w.org.name}/${w.flow}/trail/${w.trail}/attestation/${w.attestationId}/evidence`).set(...bearer(w.org.adminKey)),
      );
      expect(evidence.status).toBe(200);
      expect(w.secrets.some((s) => seen(evidence).includes(s))).toBe(true);
    }
  });
});
