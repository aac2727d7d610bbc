import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigError, loadConfig } from '../../src/common/config/app-config';
import { AdmissionTlsListener } from '../../src/modules/gate/admission-tls.listener';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The admission webhook over mutual TLS: certificates made here with the openssl CLI (a CA for the server and
 * the API server's client certificate, and a CA nobody configured), real TLS handshakes against the service's
 * second listener.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'veritrail-mtls-'));
const file = (name: string) => path.join(dir, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'pipe'] });

function makeCa(name: string): void {
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', file(`${name}.key`), '-out', file(`${name}.crt`),
    '-days', '2', '-subj', `/CN=${name}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign');
}

/** A leaf certificate signed by `ca`: `serverAuth` for localhost, or `clientAuth` for a client. */
function makeLeaf(name: string, ca: string, cn: string, usage: 'serverAuth' | 'clientAuth'): void {
  openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`), '-subj', `/CN=${cn}`);
  const ext = usage === 'serverAuth' ? 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' : 'extendedKeyUsage=clientAuth\n';
  writeFileSync(file(`${name}.ext`), ext);
  openssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file(`${ca}.crt`), '-CAkey', file(`${ca}.key`), '-CAcreateserial', '-days', '2',
    '-out', file(`${name}.crt`), '-extfile', file(`${name}.ext`));
}

makeCa('server-ca');
makeCa('client-ca');
makeCa('rogue-ca');
makeLeaf('server', 'server-ca', 'localhost', 'serverAuth');
makeLeaf('apiserver', 'client-ca', 'kube-apiserver', 'clientAuth');
makeLeaf('other', 'client-ca', 'someone-else', 'clientAuth');
makeLeaf('rogue', 'rogue-ca', 'kube-apiserver', 'clientAuth');

const TLS_ENV = {
  ADMISSION_TLS_PORT: '0',
  ADMISSION_TLS_CERT_FILE: file('server.crt'),
  ADMISSION_TLS_KEY_FILE: file('server.key'),
  ADMISSION_TLS_CLIENT_CA_FILE: file('client-ca.crt'),
};

interface Answer {
  status: number;
  body: any;
}

/** POSTs over TLS to 127.0.0.1:port, trusting the server CA, presenting `client` (a leaf name) if given. */
function post(port: number, pathname: string, body: unknown, options: { client?: string; key?: string } = {}): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: 'POST',
        servername: 'localhost',
        ca: readFileSync(file('server-ca.crt')),
        ...(options.client ? { cert: readFileSync(file(`${options.client}.crt`)), key: readFileSync(file(`${options.client}.key`)) } : {}),
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), ...(options.key ? { Authorization: `Bearer ${options.key}` } : {}) },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const DIGEST = 'b'.repeat(64);
const review = (image: string) => ({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid: 'u-mtls',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace: 'shop',
    operation: 'CREATE',
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop' }, spec: { containers: [{ name: 'web', image }] } },
  },
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('admission webhook over mutual TLS', () => {
  let t: TestApp;
  let org: TestOrg;
  let port: number;
  const route = () => `/api/v2/admission/${org.name}/prod?mode=enforce`;

  beforeAll(async () => {
    t = await startTestApp(TLS_ENV);
    port = t.app.get(AdmissionTlsListener).port!;
    org = await createOrg(t);
    await t.http().put(`/api/v2/environments/${org.name}`).set(...bearer(org.adminKey)).send({ name: 'prod', type: 'K8S' }).expect(201);
  });
  afterAll(() => t.close());

  it('judges a review sent with a client certificate from the configured CA and the API key', async () => {
    expect(port).toBeGreaterThan(0);
    expect(port).not.toBe(Number(new URL(t.baseUrl).port));
    const denied = await post(port, route(), review('registry.example/web:1.0'), { client: 'apiserver', key: org.adminKey });
    expect(denied.status).toBe(200);
    expect(denied.body.response).toMatchObject({ uid: 'u-mtls', allowed: false });
    expect(denied.body.response.status.message).toContain('registry.example/web:1.0');
    // The same review on the main port gets the same answer: one pipeline.
    const plain = await t.http().post(route()).set(...bearer(org.adminKey)).send(review('registry.example/web:1.0')).expect(200);
    expect(plain.body).toEqual(denied.body);
    // With a digest, judged by the environment's rule (no policy attached, provenance not required): admitted.
    const withDigest = await post(port, route(), review(`registry.example/web@sha256:${DIGEST}`), { client: 'apiserver', key: org.adminKey });
    expect(withDigest.body.response).toEqual({ uid: 'u-mtls', allowed: true });
  });

  it('refuses the handshake without a client certificate, or with one another CA issued', async () => {
    await expect(post(port, route(), review('x:1'), { key: org.adminKey })).rejects.toThrow();
    await expect(post(port, route(), review('x:1'), { client: 'rogue', key: org.adminKey })).rejects.toThrow();
    // The server's own certificate is checked by the client as usual: a client not trusting it gets nowhere either.
  });

  it('still asks for the API key, and serves nothing but the admission route', async () => {
    const anonymous = await post(port, route(), review('x:1'), { client: 'apiserver' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ message: expect.any(String), errors: null });
    const other = await post(port, `/api/v2/environments/${org.name}`, { name: 'x', type: 'K8S' }, { client: 'apiserver', key: org.adminKey });
    expect(other.status).toBe(404);
    expect(other.body.message).toMatch(/only the admission webhook/);
    // Nothing was created through it.
    await t.http().get(`/api/v2/environments/${org.name}/x`).set(...bearer(org.adminKey)).expect(404);
    // The settings as path segments (what a webhook configuration holds) reach the admission route; other paths under it do not.
    const exempt = await post(port, `/api/v2/admission/${org.name}/prod/enforce/exempt/shop`, review('x:1'), { client: 'apiserver', key: org.adminKey });
    expect({ status: exempt.status, response: exempt.body.response }).toEqual({ status: 200, response: { uid: 'u-mtls', allowed: true } });
    const warned = await post(port, `/api/v2/admission/${org.name}/prod/warn`, review('x:1'), { client: 'apiserver', key: org.adminKey });
    expect(warned.body.response).toMatchObject({ allowed: true, warnings: [expect.stringContaining('no digest')] });
    const elsewhere = await post(port, `/api/v2/admission/${org.name}/prod/warn/other/x`, review('x:1'), { client: 'apiserver', key: org.adminKey });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.message).toMatch(/only the admission webhook/);
  });
});

describe('admission mutual TLS with client names', () => {
  let t: TestApp;
  let port: number;
  let org: TestOrg;

  beforeAll(async () => {
    t = await startTestApp({ ...TLS_ENV, ADMISSION_TLS_CLIENT_NAMES: 'kube-apiserver, apiserver.example' });
    port = t.app.get(AdmissionTlsListener).port!;
    org = await createOrg(t);
    await t.http().put(`/api/v2/environments/${org.name}`).set(...bearer(org.adminKey)).send({ name: 'prod', type: 'K8S' }).expect(201);
  });
  afterAll(() => t.close());

  it('admits only the named clients among those the CA issued', async () => {
    const named = await post(port, `/api/v2/admission/${org.name}/prod?mode=warn`, review('x:1'), { client: 'apiserver', key: org.adminKey });
    expect(named.status).toBe(200);
    expect(named.body.response).toMatchObject({ uid: 'u-mtls', allowed: true });
    const other = await post(port, `/api/v2/admission/${org.name}/prod?mode=warn`, review('x:1'), { client: 'other', key: org.adminKey });
    expect(other.status).toBe(403);
    expect(other.body.message).toMatch(/ADMISSION_TLS_CLIENT_NAMES/);
  });
});

describe('admission mutual TLS settings', () => {
  const load = (env: Record<string, string>) => () => loadConfig(env);

  it('takes all four variables or none, and checks the files at start-up', () => {
    expect(loadConfig({}).admissionTls).toBeUndefined();
    expect(loadConfig(TLS_ENV).admissionTls).toMatchObject({ port: 0, clientNames: [] });
    expect(load({ ADMISSION_TLS_PORT: '8443' })).toThrow(
      new ConfigError('ADMISSION_TLS_CERT_FILE, ADMISSION_TLS_KEY_FILE, ADMISSION_TLS_CLIENT_CA_FILE must be set with ADMISSION_TLS_PORT (the admission webhook\'s mutual TLS takes all four)'),
    );
    expect(load({ ...TLS_ENV, ADMISSION_TLS_PORT: '70000' })).toThrow(/ADMISSION_TLS_PORT must be a port number/);
    expect(load({ ...TLS_ENV, ADMISSION_TLS_CERT_FILE: file('missing.crt') })).toThrow(/ADMISSION_TLS_CERT_FILE: cannot read .*missing\.crt.*ENOENT/);
    expect(load({ ...TLS_ENV, ADMISSION_TLS_KEY_FILE: file('other.key') })).toThrow('ADMISSION_TLS_KEY_FILE is not the key of the certificate in ADMISSION_TLS_CERT_FILE');
    expect(load({ ...TLS_ENV, ADMISSION_TLS_KEY_FILE: file('server.crt') })).toThrow('ADMISSION_TLS_KEY_FILE is not a PEM private key');
    expect(load({ ...TLS_ENV, ADMISSION_TLS_CLIENT_CA_FILE: file('apiserver.crt') })).toThrow(/is a certificate but not a CA/);
    expect(load({ ...TLS_ENV, ADMISSION_TLS_CLIENT_CA_FILE: file('server.key') })).toThrow('ADMISSION_TLS_CLIENT_CA_FILE is not a PEM certificate');
    expect(load({ ADMISSION_TLS_CLIENT_NAMES: 'kube-apiserver' })).toThrow(/ADMISSION_TLS_CLIENT_NAMES is set but/);
  });
});
