import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import request from 'supertest';
import { OpenApiController } from '../../src/openapi/openapi.controller';
import { openApiPath } from '../../src/openapi/openapi-document';
import { describeRoute, listRoutes, RouteEntry } from '../support/route-table';
import { startTestApp, TestApp } from '../support/test-app';

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

  const operationOf = (route: RouteEntry) => doc.paths?.[openApiPath(route.path)]?.[route.method.toLowerCase()];

  /** Checks every route and reports every failure at once, each naming its route. */
  function everyRoute(check: (route: RouteEntry, op: any) => string | undefined): void {
    const failures: string[] = [];
    for (const route of routes) {
      const op = operationOf(route);
      const failure = op ? check(route, op) : 'missing from the document';
      if (failure) failures.push(`${describeRoute(route)}: ${failure}`);
    }
    expect(failures).toEqual([]);
  }

  it('is served as JSON without a credential and is a valid OpenAPI 3.1 document', () => {
    expect(doc.openapi).toBe('3.1.0');
    const out = execFileSync(process.execPath, [path.join(__dirname, '../support/validate-openapi.mjs')], { input: JSON.stringify(doc) });
    const result = JSON.parse(out.toString());
    expect(result.errors).toBeNull();
    expect(result).toMatchObject({ valid: true, version: '3.1' });
  });

  it('has every route of the app, and nothing else', () => {
    expect(routes.length).toBeGreaterThan(50);
    const documented = Object.entries(doc.paths).flatMap(([p, item]: [string, any]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    const expected = routes.map((r) => `${r.method} ${openApiPath(r.path)}`);
    expect(documented.sort()).toEqual([...new Set(expected)].sort());
  });

  it('gives every route its path parameters and a success response', () => {
    everyRoute((route, op) => {
      const inPath = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
      if (JSON.stringify(inPath) !== JSON.stringify(route.params)) return `path parameters ${inPath} instead of ${route.params}`;
      if (!Object.keys(op.responses).some((code) => /^2\d\d$/.test(code))) return 'no success response';
      return undefined;
    });
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

    const beginTrail = op('put', '/api/v2/trails/{org}/{flow}').requestBody.content;
    expect(Object.keys(beginTrail['multipart/form-data'].schema.properties)).toEqual(['data_json', 'template_file']);
    expect(beginTrail['application/json']).toBeDefined();
  });

  it('resolves every schema reference', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    const unresolved = [...new Set(refs.map((r) => r.slice(8, -1)))].filter((r) => !doc.components.schemas[r.replace('#/components/schemas/', '')]);
    expect(unresolved).toEqual([]);
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
