import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { AdmissionTlsListener } from '../../src/modules/gate/admission-tls.listener';
import { bearer, createOrg } from '../support/factories';
import { webhookServicePathProblems } from '../support/k8s-webhook-rules';
import { K8sObject, renderKustomization } from '../support/kustomize';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * deploy/k8s/admission-mtls: the admission webhook over mutual TLS in the cluster Veritrail runs in. Rendered as
 * kustomize would, checked against the Kubernetes schemas and for what ties its parts together (webhook ->
 * Service -> container port -> listener setting; Certificate -> Secret -> mounted files -> settings), then the
 * service is started with the settings the Deployment gives it and files where the Secrets are mounted (made
 * with openssl), and a review is sent the way the API server would: to the Service's name, with a client
 * certificate, on the path the webhook names.
 */
const DIR = path.resolve(__dirname, '../../deploy/k8s/admission-mtls');
const objects: K8sObject[] = renderKustomization(DIR);
const find = (kind: string, name: string): any => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} is not rendered`);
  return found;
};
const webhook = find('ValidatingWebhookConfiguration', 'veritrail-gate');
const hook = webhook.webhooks[0];
const deployment = find('Deployment', 'veritrail-api');
const container = deployment.spec.template.spec.containers[0];
const envOf = (name: string): string | undefined => container.env.find((e: any) => e.name === name)?.value;

/** The file a setting names, as the Secret volume mounted there holds it: `{ secret, key }`. */
function mountedFile(file: string): { secret: string; key: string } {
  const mount = container.volumeMounts.find((m: any) => file.startsWith(m.mountPath + '/'));
  if (!mount) throw new Error(`${file} is in no volume mount`);
  const volume = deployment.spec.template.spec.volumes.find((v: any) => v.name === mount.name);
  const relative = file.slice(mount.mountPath.length + 1);
  const item = volume.secret?.items?.find((i: any) => i.path === relative);
  if (!item) throw new Error(`${file} is no item of the Secret volume ${mount.name}`);
  return { secret: volume.secret.secretName, key: item.key };
}

describe('deploy/k8s/admission-mtls', () => {
  it('renders the region overlay plus the Certificate, the Service and the webhook, valid for the Kubernetes schemas', () => {
    const added = ['Certificate/veritrail-admission-tls', 'Service/veritrail-admission', 'ValidatingWebhookConfiguration/veritrail-gate'];
    const region = renderKustomization(path.resolve(DIR, '../overlays/eu')).map((o) => `${o.kind}/${o.metadata.name}`);
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([...region, ...added].sort());
    const errors: string[] = [];
    for (const o of objects.filter((x) => x.kind !== 'Certificate')) {
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        new (require(`kubernetes-models/${o.apiVersion}`)[o.kind])(o).validate();
      } catch (error) {
        errors.push(`${o.kind}/${o.metadata.name}: ${(error as Error).message}`);
      }
    }
    expect(errors).toEqual([]);
    for (const o of objects.filter((x) => x.kind !== 'ValidatingWebhookConfiguration')) expect(`${o.kind}/${o.metadata.name} in ${o.metadata.namespace}`).toMatch(/ in veritrail$/);
  });

  it('reaches the listener: webhook -> Service -> the container port ADMISSION_TLS_PORT opens, allowed by the NetworkPolicy', () => {
    const { service } = hook.clientConfig;
    expect(hook.clientConfig.url).toBeUndefined();
    const svc = find('Service', service.name);
    expect(svc.metadata.namespace).toBe(service.namespace);
    expect(Object.entries(svc.spec.selector).every(([k, v]) => deployment.spec.template.metadata.labels[k] === v)).toBe(true);
    const port = svc.spec.ports.find((p: any) => p.port === service.port);
    const containerPort = container.ports.find((p: any) => p.name === port.targetPort);
    expect(String(containerPort.containerPort)).toBe(envOf('ADMISSION_TLS_PORT'));
    const policy = find('NetworkPolicy', 'veritrail-api');
    expect(policy.spec.ingress.flatMap((rule: any) => rule.ports.map((p: any) => p.port))).toContain(port.targetPort);
    // Kubernetes checks every segment of a service path as a DNS name, and refuses a query string.
    expect(webhookServicePathProblems(service.path)).toEqual([]);
    expect(service.path.split('/').slice(0, 4)).toEqual(['', 'api', 'v2', 'admission']);
  });

  it('serves the certificate cert-manager issues for the Service name, and trusts the client CA the operator provides', () => {
    const certificate = find('Certificate', 'veritrail-admission-tls');
    expect(certificate.apiVersion).toBe('cert-manager.io/v1');
    expect(certificate.spec.dnsNames).toContain(`${hook.clientConfig.service.name}.${hook.clientConfig.service.namespace}.svc`);
    expect(certificate.spec.usages).toContain('server auth');
    expect(certificate.spec.issuerRef.name).toEqual(expect.any(String));
    expect(webhook.metadata.annotations['cert-manager.io/inject-ca-from']).toBe(`${certificate.metadata.namespace}/${certificate.metadata.name}`);
    expect(mountedFile(envOf('ADMISSION_TLS_CERT_FILE')!)).toEqual({ secret: certificate.spec.secretName, key: 'tls.crt' });
    expect(mountedFile(envOf('ADMISSION_TLS_KEY_FILE')!)).toEqual({ secret: certificate.spec.secretName, key: 'tls.key' });
    expect(mountedFile(envOf('ADMISSION_TLS_CLIENT_CA_FILE')!)).toEqual({ secret: 'veritrail-admission-client-ca', key: 'ca.crt' });
    for (const m of container.volumeMounts.filter((x: any) => x.name.startsWith('admission'))) expect(m.readOnly).toBe(true);
  });

  describe('on a running service with those settings and files', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'veritrail-mtls-overlay-'));
    const file = (name: string) => path.join(dir, name);
    const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const serviceName = `${hook.clientConfig.service.name}.${hook.clientConfig.service.namespace}.svc`;
    let t: TestApp;

    /** Where the pod would see a Secret's key: the same file name under this test's folder for that Secret. */
    const placed = (setting: string) => {
      const { secret, key } = mountedFile(envOf(setting)!);
      mkdirSync(file(secret), { recursive: true });
      return path.join(file(secret), key);
    };

    beforeAll(async () => {
      for (const ca of ['issuer-ca', 'client-ca']) {
        openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', file(`${ca}.key`), '-out', file(`${ca}.crt`),
          '-days', '2', '-subj', `/CN=${ca}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign');
      }
      const leaf = (name: string, ca: string, cn: string, ext: string) => {
        openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`), '-subj', `/CN=${cn}`);
        writeFileSync(file(`${name}.ext`), ext);
        openssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file(`${ca}.crt`), '-CAkey', file(`${ca}.key`), '-CAcreateserial', '-days', '2', '-out', file(`${name}.crt`), '-extfile', file(`${name}.ext`));
      };
      // What cert-manager would write for the Certificate, and the API server's client certificate.
      leaf('server', 'issuer-ca', serviceName, `subjectAltName=DNS:${serviceName}\nextendedKeyUsage=serverAuth\n`);
      leaf('apiserver', 'client-ca', 'kube-apiserver', 'extendedKeyUsage=clientAuth\n');
      const settings: Record<string, string> = {
        ADMISSION_TLS_CERT_FILE: placed('ADMISSION_TLS_CERT_FILE'),
        ADMISSION_TLS_KEY_FILE: placed('ADMISSION_TLS_KEY_FILE'),
        ADMISSION_TLS_CLIENT_CA_FILE: placed('ADMISSION_TLS_CLIENT_CA_FILE'),
      };
      writeFileSync(settings.ADMISSION_TLS_CERT_FILE, readFileSync(file('server.crt')));
      writeFileSync(settings.ADMISSION_TLS_KEY_FILE, readFileSync(file('server.key')));
      writeFileSync(settings.ADMISSION_TLS_CLIENT_CA_FILE, readFileSync(file('client-ca.crt')));
      // Every ADMISSION_TLS_* setting of the Deployment, files moved here; the port is any free one (8443 may be taken).
      const fromDeployment = Object.fromEntries(container.env.filter((e: any) => e.name.startsWith('ADMISSION_TLS_')).map((e: any) => [e.name, e.value]));
      expect(Object.keys(fromDeployment).sort()).toEqual(['ADMISSION_TLS_CERT_FILE', 'ADMISSION_TLS_CLIENT_CA_FILE', 'ADMISSION_TLS_KEY_FILE', 'ADMISSION_TLS_PORT']);
      t = await startTestApp({ ...fromDeployment, ...settings, ADMISSION_TLS_PORT: '0' });
    });
    afterAll(async () => {
      await t?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('admits or refuses a review sent with the client certificate, to the Service name, on the path the webhook names', async () => {
      const org = await createOrg(t);
      await t.http().put(`/api/v2/environments/${org.name}`).set(...bearer(org.adminKey)).send({ name: 'production', type: 'K8S' }).expect(201);
      // The example's org and environment replaced by the test's; the settings segments kept.
      const segments = hook.clientConfig.service.path.split('/');
      const route = ['', 'api', 'v2', 'admission', org.name, 'production', ...segments.slice(6)].join('/');
      const port = t.app.get(AdmissionTlsListener).port!;
      const review = {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        request: { uid: 'u-overlay', kind: { group: '', version: 'v1', kind: 'Pod' }, namespace: 'shop', operation: 'CREATE', object: { spec: { containers: [{ name: 'web', image: 'registry.example/web:1.0' }] } } },
      };
      const payload = JSON.stringify(review);
      const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = httpsRequest(
          {
            host: '127.0.0.1',
            port,
            path: route,
            method: 'POST',
            servername: serviceName, // the name the API server checks the server certificate for
            ca: readFileSync(file('issuer-ca.crt')), // what the inject-ca-from annotation puts in caBundle
            cert: readFileSync(file('apiserver.crt')),
            key: readFileSync(file('apiserver.key')),
            headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), Authorization: `Bearer ${org.adminKey}` },
            agent: false,
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
      // The example enforces: an image without a digest is refused, with the reason.
      expect(answer.status).toBe(200);
      expect(answer.body.response).toMatchObject({ uid: 'u-overlay', allowed: false, status: { code: 403, message: expect.stringContaining('no digest') } });
    });
  });
});
