import * as path from 'node:path';
import { bearer, createOrg } from '../support/factories';
import { webhookUrlProblems } from '../support/k8s-webhook-rules';
import { K8sObject, renderKustomization } from '../support/kustomize';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * deploy/k8s/admission: the optional ValidatingWebhookConfiguration, rendered as kustomize would, checked against
 * the Kubernetes API schema and for what a reviewer would check; its URL is then called on a running service
 * (with a test org and environment in place of the example's) to show it names the route and valid settings.
 */
const DIR = path.resolve(__dirname, '../../deploy/k8s/admission');

describe('deploy/k8s/admission', () => {
  const objects: K8sObject[] = renderKustomization(DIR);
  const config = objects.find((o) => o.kind === 'ValidatingWebhookConfiguration') as any;

  it('renders one ValidatingWebhookConfiguration that the Kubernetes API schema accepts', () => {
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['ValidatingWebhookConfiguration/veritrail-gate']);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ValidatingWebhookConfiguration } = require('kubernetes-models/admissionregistration.k8s.io/v1');
    expect(() => new ValidatingWebhookConfiguration(config).validate()).not.toThrow();
    expect(config.metadata.namespace).toBeUndefined(); // cluster-scoped
  });

  it('has its CA injected by cert-manager, a short timeout, no side effects, and says how it fails', () => {
    expect(config.metadata.annotations['cert-manager.io/inject-ca-from']).toMatch(/^[a-z0-9-]+\/[a-z0-9-]+$/);
    const [hook] = config.webhooks;
    expect(config.webhooks).toHaveLength(1);
    expect(hook).toMatchObject({ admissionReviewVersions: ['v1'], sideEffects: 'None', failurePolicy: expect.stringMatching(/^(Fail|Ignore)$/) });
    expect(hook.timeoutSeconds).toBeGreaterThanOrEqual(1);
    expect(hook.timeoutSeconds).toBeLessThanOrEqual(10);
    expect(hook.clientConfig.service).toBeUndefined();
    // What the API server refuses although the schema takes it: a query string (the settings are path segments).
    expect(webhookUrlProblems(hook.clientConfig.url)).toEqual([]);
  });

  it('leaves the control plane and Veritrail itself alone, and reviews pods and every workload kind the service reads', () => {
    const [hook] = config.webhooks;
    const excluded = hook.namespaceSelector.matchExpressions.find((e: any) => e.key === 'kubernetes.io/metadata.name' && e.operator === 'NotIn');
    expect(excluded.values).toEqual(expect.arrayContaining(['kube-system', 'veritrail']));
    const resources = hook.rules.flatMap((r: any) => r.resources);
    expect(resources.sort()).toEqual(['cronjobs', 'daemonsets', 'deployments', 'jobs', 'pods', 'podtemplates', 'replicasets', 'replicationcontrollers', 'statefulsets'].sort());
    for (const r of hook.rules) expect(r.operations).toEqual(['CREATE', 'UPDATE']);
  });

  describe('its URL on a running service', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    it('is the admission route, and the service accepts its settings', async () => {
      const org = await createOrg(t, {});
      await t.http().put(`/api/v2/environments/${org.name}`).set(...bearer(org.adminKey)).send({ name: 'production', type: 'K8S' }).expect(201);
      const url = new URL(config.webhooks[0].clientConfig.url);
      const segments = url.pathname.split('/');
      expect(segments.slice(0, 4)).toEqual(['', 'api', 'v2', 'admission']);
      expect(segments).toHaveLength(7); // org, environment, mode
      const review = {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        request: { uid: 'u-1', kind: { group: '', version: 'v1', kind: 'Pod' }, namespace: 'shop', operation: 'CREATE', object: { spec: { containers: [{ name: 'c', image: 'x:1' }] } } },
      };
      const res = await t
        .http()
        .post(`/api/v2/admission/${org.name}/${segments[5]}/${segments.slice(6).join('/')}`)
        .set(...bearer(org.adminKey))
        .send(review)
        .expect(200);
      // The example enforces: an image without a digest is refused.
      expect(res.body.response).toMatchObject({ uid: 'u-1', allowed: false, status: { code: 403 } });
    });
  });
});
