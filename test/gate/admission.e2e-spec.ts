import { randomUUID } from 'node:crypto';
import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { digest, envApi, pod } from '../support/env-helpers';

/** A Kubernetes object checked against the API schemas (kubernetes-models), as the API server would have. */
function valid<T extends { apiVersion: string; kind: string }>(o: T): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Model = require(`kubernetes-models/${o.apiVersion}`)[o.kind];
  new Model(o).validate();
  return o;
}

const container = (name: string, image: string) => ({ name, image, resources: { limits: { cpu: '100m', memory: '64Mi' } } });

/** What the API server sends for the CREATE of an object in a namespace. */
const review = (object: { apiVersion: string; kind: string; metadata: { namespace?: string } }, operation = 'CREATE') => {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: randomUUID(),
      kind: { group, version, kind: object.kind },
      resource: { group, version, resource: `${object.kind.toLowerCase()}s` },
      requestKind: { group, version, kind: object.kind },
      namespace: object.metadata.namespace ?? 'default',
      operation,
      userInfo: { username: 'system:serviceaccount:kube-system:replicaset-controller', groups: ['system:serviceaccounts'] },
      object: valid(object),
      oldObject: null,
      dryRun: false,
      options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
    },
  };
};

describe('POST /admission/{org}/{env}: the Kubernetes validating admission webhook', () => {
  let t: TestApp;
  let org: TestOrg;
  let readerKey: string;
  const GOOD = digest('admission-good');
  const BAD = digest('admission-bad');
  const UNKNOWN = digest('admission-unknown');
  const image = (name: string, fingerprint: string) => `registry.example/${name}@sha256:${fingerprint}`;
  const send = (body: unknown, query: Record<string, string | string[]> = {}, env = 'prod', key = readerKey) =>
    t.http().post(`/api/v2/admission/${org.name}/${env}`).query(query).set(...bearer(key)).send(body as object);

  const podOf = (containers: Array<{ name: string; image: string }>, extra: Record<string, unknown> = {}, namespace = 'shop') => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-7d9c', namespace, labels: { app: 'web' } },
    spec: { containers: containers.map((c) => container(c.name, c.image)), ...extra },
  });

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t, {});
    readerKey = await addMember(t, org.name, 'reader');
    const as = <T extends { set: (k: string, v: string) => T }>(req: T) => req.set(...bearer(org.adminKey));
    await as(t.http().put(`/api/v2/flows/${org.name}`)).send({ name: 'shop', description: '', visibility: 'private' }).expect(201);
    for (const [trail, fingerprint, compliant] of [
      ['good', GOOD, true],
      ['bad', BAD, false],
    ] as const) {
      await as(t.http().put(`/api/v2/trails/${org.name}/shop`)).field('data_json', JSON.stringify({ name: trail })).expect(201);
      await as(t.http().post(`/api/v2/artifacts/${org.name}/shop`)).send({ fingerprint, filename: trail, trail_name: trail, template_reference_name: trail }).expect(201);
      await as(t.http().post(`/api/v2/attestations/${org.name}/shop/trail/${trail}/generic`))
        .field('data_json', JSON.stringify({ attestation_name: 'unit-test', is_compliant: compliant, artifact_fingerprint: fingerprint }))
        .expect(201);
    }
    await envApi(t, org).create({ name: 'prod', type: 'K8S', description: '', require_provenance: true }).expect(201);
    await envApi(t, org).report('prod', 'K8S', { artifacts: [pod('p', { good: GOOD })] }).expect(201);
  });
  afterAll(() => t.close());

  it('admits a pod whose every container (init containers too) passes; answers with the request uid', async () => {
    const body = review(podOf([{ name: 'web', image: image('web', GOOD) }], { initContainers: [container('migrate', image('web', GOOD))] }));
    const res = await send(body).expect(200);
    expect(res.body).toEqual({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: body.request.uid, allowed: true } });
  });

  it('denies a pod listing each failing container with its reasons (environment without policies: its rule of old)', async () => {
    const body = review(
      podOf([
        { name: 'web', image: image('web', GOOD) },
        { name: 'api', image: image('api', BAD) },
        { name: 'cache', image: image('cache', UNKNOWN) },
        { name: 'sidecar', image: 'registry.example/sidecar:1.2' },
        { name: 'log', image: image('log', GOOD) },
      ]),
    );
    const res = await send(body).expect(200);
    expect(res.body.response).toEqual({
      uid: body.request.uid,
      allowed: false,
      status: {
        code: 403,
        reason: 'Forbidden',
        message:
          "denied by the policies of environment 'prod': " +
          [
            `containers[1] 'api' image '${image('api', BAD)}': trail 'bad' of flow 'shop' is NON-COMPLIANT`,
            `containers[2] 'cache' image '${image('cache', UNKNOWN)}': no provenance: no trail reported this artifact`,
            "containers[3] 'sidecar' image 'registry.example/sidecar:1.2': no digest: images are judged by digest (image@sha256:<64 hex>)",
          ].join(' | '),
      },
    });
  });

  it('judges each environment by its own rule: one that does not require provenance admits what one that does refuses, in either order', async () => {
    // Two more environments without policies; only the second requires provenance. An image no trail reported.
    const LONE = digest('admission-lone');
    await envApi(t, org).create({ name: 'lax', type: 'K8S', description: '', require_provenance: false }).expect(201);
    await envApi(t, org).create({ name: 'strict', type: 'K8S', description: '', require_provenance: true }).expect(201);
    const body = () => review(podOf([{ name: 'web', image: image('web', LONE) }]));
    expect((await send(body(), {}, 'lax').expect(200)).body.response.allowed).toBe(true);
    expect((await send(body(), {}, 'strict').expect(200)).body.response.allowed).toBe(false);
    expect((await send(body(), {}, 'lax').expect(200)).body.response.allowed).toBe(true);
  });

  it('judges by the name the flow has now: a rename changes what a rule on flow.name decides', async () => {
    const as = <T extends { set: (k: string, v: string) => T }>(req: T) => req.set(...bearer(org.adminKey));
    // A flow whose trail passes everywhere but in a flow named 'critical', where a scan is required.
    const SHIP = digest('admission-ship');
    await as(t.http().put(`/api/v2/flows/${org.name}`)).send({ name: 'ship', description: '', visibility: 'private' }).expect(201);
    await as(t.http().put(`/api/v2/trails/${org.name}/ship`)).field('data_json', JSON.stringify({ name: 't1' })).expect(201);
    await as(t.http().post(`/api/v2/artifacts/${org.name}/ship`)).send({ fingerprint: SHIP, filename: 'ship', trail_name: 't1', template_reference_name: 'ship' }).expect(201);
    await envApi(t, org).create({ name: 'named', type: 'K8S', description: '' }).expect(201);
    const policy =
      '_schema: https://docs.kosli.com/schemas/policy/v1\nartifacts:\n  provenance:\n    required: true\n  attestations:\n' +
      '    - name: sec-scan\n      type: generic\n      if: ${{ flow.name == "critical" }}\n';
    await as(t.http().put(`/api/v2/policies/${org.name}`)).field('payload', JSON.stringify({ name: 'by-name' })).attach('policy_file', Buffer.from(policy), 'p.yaml').expect(201);
    await as(t.http().post(`/api/v2/environments/${org.name}/named/policies`)).send({ policy_names: ['by-name'] }).expect(200);
    const body = () => review(podOf([{ name: 'ship', image: image('ship', SHIP) }]));
    expect((await send(body(), {}, 'named').expect(200)).body.response.allowed).toBe(true);
    await as(t.http().put(`/api/v2/flows/${org.name}/ship/rename`)).send({ new_name: 'critical' }).expect(200);
    const after = (await send(body(), {}, 'named').expect(200)).body.response;
    expect(after.allowed).toBe(false);
    expect(after.status.message).toMatch(/sec-scan/);
  });

  it('judges by the attached policies once there are some, and pod templates of every workload kind', async () => {
    const yaml = '_schema: https://docs.kosli.com/schemas/policy/v1\nartifacts:\n  attestations:\n    - name: security-scan\n      type: snyk\n';
    await t.http().put(`/api/v2/policies/${org.name}`).set(...bearer(org.adminKey)).field('payload', JSON.stringify({ name: 'scans' })).attach('policy_file', Buffer.from(yaml), 'p.yaml').expect(201);
    await t.http().post(`/api/v2/environments/${org.name}/prod/policies`).set(...bearer(org.adminKey)).send({ policy_names: ['scans'] }).expect(200);
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [container('web', image('web', GOOD))] } };
    const workloads = [
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: { selector: { matchLabels: { app: 'web' } }, template } },
      { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'shop' }, spec: { serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template } },
      { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'web', namespace: 'shop' }, spec: { selector: { matchLabels: { app: 'web' } }, template } },
      { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'web', namespace: 'shop' }, spec: { template: { ...template, spec: { ...template.spec, restartPolicy: 'Never' } } } },
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name: 'web', namespace: 'shop' },
        spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { ...template, spec: { ...template.spec, restartPolicy: 'Never' } } } } },
      },
    ];
    for (const w of workloads) {
      const res = await send(review(w)).expect(200);
      expect([w.kind, res.body.response.allowed, res.body.response.status?.message]).toEqual([
        w.kind,
        false,
        `denied by the policies of environment 'prod': containers[0] 'web' image '${image('web', GOOD)}': policy 'scans' v1: missing attestation 'security-scan' of type 'snyk' in trail 'good' of flow 'shop'`,
      ]);
    }
    await t.http().delete(`/api/v2/environments/${org.name}/prod/policies`).set(...bearer(org.adminKey)).send({ policy_names: ['scans'] }).expect(200);
  });

  it('warn admits with a warning per failing image; off and exempt namespaces admit without judging', async () => {
    const body = review(podOf([{ name: 'web', image: 'registry.example/web:latest' }]));
    const warn = await send(body, { mode: 'warn' }).expect(200);
    expect(warn.body.response).toEqual({
      uid: body.request.uid,
      allowed: true,
      warnings: ["veritrail (prod, warn mode): containers[0] 'web' image 'registry.example/web:latest': no digest: images are judged by digest (image@sha256:<64 hex>)"],
    });
    expect((await send(body, { mode: 'off' }).expect(200)).body.response).toEqual({ uid: body.request.uid, allowed: true });
    const system = review(podOf([{ name: 'dns', image: 'registry.k8s.io/coredns:v1.11' }], {}, 'kube-system'));
    expect((await send(system, { exempt_namespace: ['kube-system', 'monitoring'] }).expect(200)).body.response.allowed).toBe(true);
    expect((await send(system).expect(200)).body.response.allowed).toBe(false);
    // Deleting is never judged, nor are objects that hold no pod.
    const del = { ...body, request: { ...body.request, operation: 'DELETE', oldObject: body.request.object, object: null } };
    expect((await send(del).expect(200)).body.response.allowed).toBe(true);
    const cm = review({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'shop' }, data: { a: 'b' } } as any);
    expect((await send(cm).expect(200)).body.response.allowed).toBe(true);
  });

  it('takes its settings from the path too, the form a ValidatingWebhookConfiguration can hold (Kubernetes refuses a query string there)', async () => {
    const at = (path: string, query: Record<string, string> = {}) => (body: unknown) =>
      t.http().post(`/api/v2/admission/${org.name}/prod${path}`).query(query).set(...bearer(readerKey)).send(body as object);
    const body = review(podOf([{ name: 'web', image: 'registry.example/web:latest' }]));
    expect((await at('/enforce')(body).expect(200)).body.response.allowed).toBe(false);
    expect((await at('/warn')(body).expect(200)).body.response).toMatchObject({ allowed: true, warnings: [expect.stringContaining('warn mode')] });
    expect((await at('/off')(body).expect(200)).body.response).toEqual({ uid: body.request.uid, allowed: true });
    const system = review(podOf([{ name: 'dns', image: 'registry.k8s.io/coredns:v1.11' }], {}, 'kube-system'));
    expect((await at('/enforce/exempt/monitoring/kube-system')(system).expect(200)).body.response.allowed).toBe(true);
    expect((await at('/enforce/exempt/monitoring')(system).expect(200)).body.response.allowed).toBe(false);
    // A wrong segment, or the settings given twice, is a clear 400, never a silent default.
    expect((await at('/block')(body).expect(400)).body.errors).toEqual({ 'path.mode': 'must be one of enforce, warn, off (the segment after the environment)' });
    expect((await at('/warn', { mode: 'enforce' })(body).expect(400)).body.errors).toEqual({
      query: 'the settings are in the path: leave mode and exempt_namespace out of the query',
    });
    await at('/enforce/exempt/')(body).expect(404);
  });

  it('refuses what is not an AdmissionReview with 400 naming the path, an unknown environment with 404, no key with 401', async () => {
    expect((await send({ apiVersion: 'v1', kind: 'Pod' }).expect(400)).body.errors).toEqual({
      apiVersion: 'must be admission.k8s.io/v1',
      kind: 'must be AdmissionReview',
      request: 'is required: an object',
    });
    const body = review(podOf([{ name: 'web', image: image('web', GOOD) }]));
    const broken = { ...body, request: { ...body.request, object: { ...body.request.object, spec: { containers: [{ name: 'web' }] } } } };
    expect((await send(broken).expect(400)).body.errors).toEqual({ 'request.object.spec.containers[0].image': 'must be a string of 1 to 4096 characters' });
    expect((await send(body, { mode: 'block' }).expect(400)).body.errors).toEqual({ 'query.mode': 'must be one of the following values: enforce, warn, off' });
    await send(body, {}, 'nowhere').expect(404, { message: "Environment 'nowhere' not found", errors: null });
    await t.http().post(`/api/v2/admission/${org.name}/prod`).send(body).expect(401);
  });
});
