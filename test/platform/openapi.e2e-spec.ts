import { Controller, Get, Module } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import Ajv2020 from 'ajv/dist/2020';
import { execFile, execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { OpenApiController } from '../../src/common/openapi/openapi.controller';
import { openApiPath } from '../../src/common/openapi/openapi-document';
import { createApp } from '../../src/app.factory';
import { BETA_FEATURES } from '../../src/common/auth/principal';
import { JsonLogger } from '../../src/common/logging/json-logger';
import { FEATURE_MODULES } from '../../src/modules/feature-modules';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { describeRoute, fillPath, listRoutes, RouteEntry } from '../support/route-table';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';

/**
 * The API description: fetched as a client would (no credential), validated as OpenAPI 3.1, and checked
 * against Nest's route table, so that a route added later without a description fails here.
 */
describe('API description (OpenAPI)', () => {
  let t: TestApp;
  let routes: RouteEntry[];
  let doc: any;

  beforeAll(async () => {
    t = await startTestApp();
    routes = listRoutes(t.app).filter((r) => r.controller !== OpenApiController);
    const res = await request(t.baseUrl).get('/api/v2/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(() => t.close());

  /** What is wrong with each route's description in `document`, one line per route. */
  function problems(document: any, among: RouteEntry[], check: (route: RouteEntry, op: any) => string | undefined): string[] {
    const failures: string[] = [];
    for (const route of among) {
      const op = document.paths?.[openApiPath(route.path)]?.[route.method.toLowerCase()];
      const failure = op ? check(route, op) : 'missing from the document';
      if (failure) failures.push(`${describeRoute(route)}: ${failure}`);
    }
    return failures;
  }
  /** Checks every route and reports every failure at once, each naming its route. */
  const everyRoute = (check: (route: RouteEntry, op: any) => string | undefined) => expect(problems(doc, routes, check)).toEqual([]);

  it('is served as JSON without a credential and is a valid OpenAPI 3.1 document', () => {
    expect(doc.openapi).toBe('3.1.0');
    const out = execFileSync(process.execPath, [path.join(__dirname, '../support/validate-openapi.mjs')], { input: JSON.stringify(doc) });
    const result = JSON.parse(out.toString());
    expect(result.errors).toBeNull();
    expect(result).toMatchObject({ valid: true, version: '3.1' });
  });

  it('is what `npm run openapi` saves', async () => {
    // Asynchronously: the server answering the script runs in this process.
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(__dirname, '../../scripts/openapi.js')], {
      env: { ...process.env, VERITRAIL_URL: t.baseUrl },
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(JSON.parse(stdout)).toEqual(doc);
  });

  it('has every route of the app, and nothing else', () => {
    expect(routes.length).toBeGreaterThan(50);
    const documented = Object.entries(doc.paths).flatMap(([p, item]: [string, any]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    const expected = routes.map((r) => `${r.method} ${openApiPath(r.path)}`);
    expect(documented.sort()).toEqual([...new Set(expected)].sort());
  });

  /** A route's path parameters and its described success response (`@ApiSuccess`). */
  const describedSuccess = (route: RouteEntry, op: any): string | undefined => {
    const inPath = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
    if (JSON.stringify(inPath) !== JSON.stringify(route.params)) return `path parameters ${inPath} instead of ${route.params}`;
    const success = Object.entries(op.responses).filter(([code]) => /^2\d\d$/.test(code));
    if (!success.length) return 'no success response';
    const undescribed = success.filter(([, r]: [string, any]) => !Object.values(r.content ?? {}).some((c: any) => c.schema));
    if (undescribed.length) return `success response ${undescribed.map(([code]) => code)} without a schema: add @ApiSuccess(schema)`;
    return undefined;
  };

  it('gives every route its path parameters and a success response with its schema (@ApiSuccess)', () => {
    everyRoute(describedSuccess);
  });

  it('fails for a route added without a description', async () => {
    @Controller('planted')
    class PlantedController {
      @Get(':org/things')
      list() {
        return [];
      }
    }
    @Module({ controllers: [PlantedController] })
    class PlantedModule {}
    FEATURE_MODULES.push(PlantedModule);
    let planted: NestExpressApplication | undefined;
    try {
      planted = await createApp({ config: t.config, dataSource: t.dataSource, adminToken: t.adminToken, logger: new JsonLogger('silent') });
      await planted.init();
      const document = (await request(planted.getHttpServer()).get('/api/v2/openapi.json')).body;
      const plantedRoutes = listRoutes(planted).filter((r) => r.controller === PlantedController);
      expect(problems(document, plantedRoutes, describedSuccess)).toEqual([
        'GET /api/v2/planted/:org/things: success response 200 without a schema: add @ApiSuccess(schema)',
      ]);
    } finally {
      FEATURE_MODULES.splice(FEATURE_MODULES.indexOf(PlantedModule), 1);
      await planted?.close();
    }
  });

  it('gives every route the error statuses its metadata implies, each with the error body', () => {
    everyRoute((route, op) => {
      const expected = ['500', '503'];
      if (route.policy.scope !== 'public') expected.push('401');
      if (route.policy.scope === 'org-scoped') expected.push('403', '404');
      if (op.requestBody) expected.push('400', '413', '415');
      const missing = expected.filter((code) => !op.responses[code]);
      if (missing.length) return `no ${missing.join(', ')} response`;
      for (const [code, response] of Object.entries(op.responses) as [string, any][]) {
        if (!/^[45]/.test(code)) continue;
        const schema = response.content?.['application/json']?.schema?.$ref;
        if (!/^#\/components\/schemas\/(Error|UnexpectedError)$/.test(schema ?? '')) return `${code} without the error body`;
      }
      if (!op.responses['503'].headers?.['Retry-After']) return '503 without Retry-After';
      return undefined;
    });
    const error = doc.components.schemas.Error;
    expect(error.required).toEqual(['message', 'errors']);
    expect(doc.components.schemas.UnexpectedError.required).toContain('error_id');
  });

  it('describes query fields and bodies from the validation rules', () => {
    const op = (method: string, p: string) => doc.paths[p][method];
    const listFlows = op('get', '/api/v2/flows/{org}');
    expect(listFlows.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['org', 'page', 'per_page', 'search_by_name']));
    const createFlow = op('put', '/api/v2/flows/{org}').requestBody.content['application/json'].schema.$ref;
    const flowSchema = doc.components.schemas[createFlow.split('/').pop()];
    expect(flowSchema.required).toContain('name');
    expect(Object.keys(flowSchema.properties)).toEqual(expect.arrayContaining(['name', 'description', 'visibility']));

    const generic = op('post', '/api/v2/attestations/{org}/{flow_name}/trail/{trail_name}/generic').requestBody.content['multipart/form-data'];
    expect(generic.schema.required).toEqual(['data_json']);
    expect(Object.keys(generic.schema.properties)).toEqual(['data_json', 'attachment_file']);
    const dataSchema = doc.components.schemas[generic.schema.properties.data_json.contentSchema.$ref.split('/').pop()];
    expect(dataSchema.required).toContain('attestation_name');

    // The typed attestation routes take the CLI's form, each with its evidence field required.
    for (const [type, field] of [['junit', 'junit_results'], ['snyk', 'snyk_results'], ['sonar', 'sonar_results'], ['jira', 'jira_results'], ['pull_request', 'pull_requests']]) {
      const form = op('post', `/api/v2/attestations/{org}/{flow_name}/trail/{trail_name}/${type}`).requestBody.content['multipart/form-data'];
      const schema = doc.components.schemas[form.schema.properties.data_json.contentSchema.$ref.split('/').pop()];
      expect(schema.required).toEqual(expect.arrayContaining(['attestation_name', field]));
    }
    // A public webhook receiver says what its signature check answers.
    const sonarHook = op('post', '/api/v2/webhooks/sonar/{hook_uid}');
    expect(Object.keys(sonarHook.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    const ldHook = op('post', '/api/v2/webhooks/launch-darkly/{hook_uid}');
    expect(Object.keys(ldHook.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));

    const beginTrail = op('put', '/api/v2/trails/{org}/{flow}').requestBody.content;
    expect(Object.keys(beginTrail['multipart/form-data'].schema.properties)).toEqual(['data_json', 'template_file']);
    expect(beginTrail['application/json']).toBeDefined();
  });

  it('resolves every schema reference', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    const unresolved = [...new Set(refs.map((r) => r.slice(8, -1)))].filter((r) => !doc.components.schemas[r.replace('#/components/schemas/', '')]);
    expect(unresolved).toEqual([]);
  });

  describe('responses of a populated organization', () => {
    let org: TestOrg;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const names = { flow: uniqueName('flow'), trail: 'trail-1', env: uniqueName('env'), control: 'ctl-1', account: uniqueName('sa') };
    let attestationId = '';
    let keyId = '';

    /** The failure, if the answer does not match the schema the document gives for its status. */
    function mismatch(method: string, template: string, res: request.Response): string | undefined {
      const response = doc.paths[template]?.[method]?.responses?.[res.status];
      if (!response) return `${res.status} is not documented: ${JSON.stringify(res.body)}`;
      const schema = response.content?.['application/json']?.schema;
      if (!schema || schema.$ref) return undefined;
      const validate = ajv.compile(schema);
      const body = res.headers['content-type']?.startsWith('application/json') ? JSON.parse(res.text) : res.text;
      return validate(body) ? undefined : `${res.status} ${ajv.errorsText(validate.errors)}`;
    }

    beforeAll(async () => {
      org = await createOrg(t, { features: [...BETA_FEATURES] });
      const auth = bearer(org.adminKey);
      const writes: [string, string, request.Test][] = [
        ['put', '/api/v2/flows/{org}', request(t.baseUrl).put(`/api/v2/flows/${org.name}`).set(...auth).send({ name: names.flow })],
      ];
      const check = async (method: string, template: string, pending: request.Test, status: number) => {
        const res = await pending;
        expect([template, res.status]).toEqual([template, status]);
        expect(mismatch(method, template, res)).toBeUndefined();
        return res;
      };
      await check(...writes[0], 201);
      await check('put', '/api/v2/trails/{org}/{flow}', request(t.baseUrl).put(`/api/v2/trails/${org.name}/${names.flow}`).set(...auth).send({ name: names.trail }), 201);
      await check(
        'post',
        '/api/v2/artifacts/{org}/{flow}',
        request(t.baseUrl)
          .post(`/api/v2/artifacts/${org.name}/${names.flow}`)
          .set(...auth)
          .send({ fingerprint: 'a'.repeat(64), filename: 'app.tgz', trail_name: names.trail, template_reference_name: 'app' }),
        201,
      );
      await check(
        'post',
        '/api/v2/attestations/{org}/{flow_name}/trail/{trail_name}/generic',
        request(t.baseUrl)
          .post(`/api/v2/attestations/${org.name}/${names.flow}/trail/${names.trail}/generic`)
          .set(...auth)
          .field('data_json', JSON.stringify({ attestation_name: 'unit-tests', is_compliant: true }))
          .attach('attachment_file', Buffer.from('report'), 'report.txt'),
        201,
      );
      const listed = await request(t.baseUrl).get(`/api/v2/attestations/${org.name}/${names.flow}`).set(...auth);
      attestationId = listed.body.data[0].attestation_id;
      await check('put', '/api/v2/environments/{org}', request(t.baseUrl).put(`/api/v2/environments/${org.name}`).set(...auth).send({ name: names.env, type: 'server' }), 201);
      await check(
        'put',
        '/api/v2/environments/{org}/{env}/report/server',
        request(t.baseUrl)
          .put(`/api/v2/environments/${org.name}/${names.env}/report/server`)
          .set(...auth)
          .send({ artifacts: [{ digests: { 'app.tgz': 'a'.repeat(64) }, creationTimestamp: 1700000000 }] }),
        201,
      );
      await check('post', '/api/v2/controls/{org}', request(t.baseUrl).post(`/api/v2/controls/${org.name}`).set(...auth).send({ identifier: names.control, name: 'Tests pass' }), 201);
      await check(
        'post',
        '/api/v2/service-accounts/{org}',
        request(t.baseUrl).post(`/api/v2/service-accounts/${org.name}`).set(...auth).send({ name: names.account, privilege: 'reader' }),
        201,
      );
      const key = await check('post', '/api/v2/api-keys/{org}', request(t.baseUrl).post(`/api/v2/api-keys/${org.name}`).set(...auth).send({ description: 'ci' }), 201);
      keyId = key.body.id;
      // The deployment gate: a policy attached to the environment, an allow-listed artifact, an admission review.
      const policy = '_schema: https://docs.kosli.com/schemas/policy/v1\nartifacts:\n  provenance:\n    required: true\n';
      await check(
        'put',
        '/api/v2/policies/{org}',
        request(t.baseUrl).put(`/api/v2/policies/${org.name}`).set(...auth).field('payload', JSON.stringify({ name: 'prod' })).attach('policy_file', Buffer.from(policy), 'p.yaml'),
        201,
      );
      await check('post', '/api/v2/environments/{org}/{env}/policies', request(t.baseUrl).post(`/api/v2/environments/${org.name}/${names.env}/policies`).set(...auth).send({ policy_names: ['prod'] }), 200);
      await check(
        'put',
        '/api/v2/allowlists/{org}/{env}',
        request(t.baseUrl).put(`/api/v2/allowlists/${org.name}/${names.env}`).set(...auth).send({ artifact_name: 'app.tgz', artifact_fingerprint: 'a'.repeat(64), description: 'ok' }),
        201,
      );
      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'n' }, spec: { containers: [{ name: 'c', image: `app@sha256:${'a'.repeat(64)}` }] } };
      const review = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'u-1', kind: { group: '', version: 'v1', kind: 'Pod' }, namespace: 'n', operation: 'CREATE', object: pod } };
      await check('post', '/api/v2/admission/{org}/{env}', request(t.baseUrl).post(`/api/v2/admission/${org.name}/${names.env}`).set(...auth).send(review), 200);
    });

    it('match their schemas, on every GET route this organization has data for', async () => {
      const values: Record<string, string> = {
        org: org.name,
        flow: names.flow,
        flow_name: names.flow,
        trail: names.trail,
        trail_name: names.trail,
        env: names.env,
        identifier: names.control,
        service_account: names.account,
        key_id: keyId,
        event_id: (await t.dataSource.query(`SELECT e.id FROM credential_events e JOIN organizations o ON o.id = e.org_id WHERE o.name = $1 LIMIT 1`, [org.name]))[0].id,
        attestation_id: attestationId,
        attestation_name: 'unit-tests',
        expression: '1',
        snapshot_expression: '1',
        policy_name: 'prod',
        version: '1',
        fingerprint: 'a'.repeat(64),
      };
      const failures: string[] = [];
      const checked: string[] = [];
      for (const route of routes.filter((r) => r.method === 'GET')) {
        if (route.params.some((p) => !(p in values))) continue;
        const res = await request(t.baseUrl).get(fillPath(route, (p) => values[p], 'test/platform/openapi.e2e-spec.ts')).set(...bearer(org.adminKey));
        if (res.status !== 200) continue;
        checked.push(describeRoute(route));
        const failure = mismatch('get', openApiPath(route.path), res);
        if (failure) failures.push(`${describeRoute(route)}: ${failure}`);
      }
      expect(failures).toEqual([]);
      expect(checked).toEqual(
        expect.arrayContaining([
          'GET /api/v2/flows/:org/:flow',
          'GET /api/v2/trails/:org/:flow/:trail',
          'GET /api/v2/attestations/:org/:flow_name',
          'GET /api/v2/environments/:org/:env',
          'GET /api/v2/snapshots/:org/:env/:snapshot_expression',
          'GET /api/v2/controls/:org/:identifier',
          'GET /api/v2/api-keys/:org/:key_id',
          'GET /api/v2/policies/:org/:policy_name',
          'GET /api/v2/policies/:org/:policy_name/versions/:version',
          'GET /api/v2/controls/:org/:identifier/versions/:version',
          'GET /api/v2/credential-events/:org/:event_id',
          'GET /api/v2/asserts/:org/fingerprint/:fingerprint',
          'GET /api/v2/asserts/:org/fingerprint/:fingerprint/environments',
          'GET /api/v2/allowlists/:org',
        ]),
      );
      expect(checked.length).toBeGreaterThanOrEqual(25);
    });
  });

  it('serves a browsable page whose assets come from this server, without a credential', async () => {
    const page = await request(t.baseUrl).get('/api/v2/doc');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets).toEqual(expect.arrayContaining(['/api/v2/doc/swagger-ui.css', '/api/v2/doc/swagger-ui-bundle.js', '/api/v2/doc/start.js']));
    for (const asset of assets) {
      expect(asset.startsWith('/api/v2/doc/')).toBe(true);
      const res = await request(t.baseUrl).get(asset);
      expect([asset, res.status]).toEqual([asset, 200]);
      expect(Number(res.headers['content-length'] ?? res.text?.length ?? 0)).toBeGreaterThan(100);
    }
    const start = await request(t.baseUrl).get('/api/v2/doc/start.js');
    expect(start.text).toContain('SwaggerUIBundle');
    expect(page.text).toContain('data-url="/api/v2/openapi.json"');
  });
});
