import { Controller, Get, Module, Param } from '@nestjs/common';
import { createApp } from '../../src/app.factory';
import { BETA_FEATURES } from '../../src/common/auth/principal';
import { JsonLogger } from '../../src/common/logging/json-logger';
import { FEATURE_MODULES } from '../../src/modules/feature-modules';
import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { describeRoute, fillPath, httpMethod, listRoutes, RouteEntry, servedRoutes } from '../support/route-table';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';

/**
 * Walks the app's real route table: every route has exactly one scope, and the guards enforce it on every
 * route, including routes added after this test was written (nothing here lists the org-scoped routes).
 */
describe('route table', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let routes: RouteEntry[];

  /** Guards answer before any parameter is used, so any value will do except for the org. */
  const pathFor = (route: RouteEntry, orgName: string) =>
    fillPath(route, (param) => (param === 'org' ? orgName : 'x'), 'test/platform/route-table.e2e-spec.ts');
  const call = (route: RouteEntry, path: string, key?: string) => {
    const req = t.http()[httpMethod(route)](path);
    return key ? req.set(...bearer(key)) : req;
  };
  /** Runs `check` on every route it applies to and reports all failures at once, each naming its route. */
  async function everyRoute(filter: (r: RouteEntry) => boolean, check: (r: RouteEntry) => Promise<string | undefined>) {
    const selected = routes.filter(filter);
    const failures: string[] = [];
    for (const route of selected) {
      const failure = await check(route);
      if (failure) failures.push(`${describeRoute(route)}: ${failure}`);
    }
    expect(failures).toEqual([]);
    return selected;
  }
  const expectStatus = (status: number, res: { status: number; body: unknown }) =>
    res.status === status ? undefined : `expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`;

  beforeAll(async () => {
    t = await startTestApp();
    // Beta features on, so that a 403 below can only come from the membership check.
    org = await createOrg(t, { features: [...BETA_FEATURES] });
    other = await createOrg(t, { features: [...BETA_FEATURES] });
    routes = listRoutes(t.app);
  });
  afterAll(() => t.close());

  it('lists exactly the routes Express serves', () => {
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.map(describeRoute).sort()).toEqual(servedRoutes(t.app).sort());
  });

  it('gives every route one scope; the routes outside an org are these, on purpose', () => {
    expect(routes.filter((r) => r.policy.refusal).map((r) => `${describeRoute(r)}: ${r.policy.refusal}`)).toEqual([]);
    const outsideOrgs = routes
      .filter((r) => r.policy.scope !== 'org-scoped')
      .map((r) => `${r.policy.scope} ${describeRoute(r)}`)
      .sort();
    // A new public, operator or @NotOrgScoped route is a decision: add it here deliberately.
    expect(outsideOrgs).toEqual([
      // The web interface's session: the caller's own, no organization's data (sign-in takes the key in the body).
      'not-org-scoped DELETE /api/v2/session',
      'not-org-scoped GET /api/v2/session',
      'operator PATCH /api/v2/admin/organizations/:org',
      'operator POST /api/v2/admin/organizations',
      'operator POST /api/v2/admin/organizations/:org/members',
      'public GET /api/v2/doc',
      'public GET /api/v2/doc/favicon-32x32.png',
      'public GET /api/v2/doc/start.js',
      'public GET /api/v2/doc/swagger-ui-bundle.js',
      'public GET /api/v2/doc/swagger-ui.css',
      'public GET /api/v2/log/keys', // the evidence log's public keys: verifiers need them without an account
      'public GET /api/v2/openapi.json',
      'public GET /health',
      'public GET /metrics',
      'public GET /ready',
      'public POST /api/v2/session',
      // LaunchDarkly and SonarQube send no API key: the hook's uid names the org and its HMAC header proves the secret.
      'public POST /api/v2/webhooks/launch-darkly/:hook_uid',
      'public POST /api/v2/webhooks/sonar/:hook_uid',
    ]);
    expect(routes.filter((r) => r.policy.scope === 'org-scoped').every((r) => r.params.includes('org'))).toBe(true);
  });

  it('every route but the public ones answers 401 without a credential', async () => {
    const checked = await everyRoute(
      (r) => r.policy.scope !== 'public',
      async (r) => {
        const res = await call(r, pathFor(r, org.name));
        if (res.status !== 401) return expectStatus(401, res);
        return /^Bearer/.test(res.headers['www-authenticate'] ?? '') ? undefined : 'no WWW-Authenticate: Bearer';
      },
    );
    expect(checked.length).toBe(routes.filter((r) => r.policy.scope !== 'public').length);
  });

  it('every public route answers without a credential', async () => {
    const checked = await everyRoute(
      (r) => r.policy.scope === 'public',
      // An inbound webhook is authenticated by its uid and signature, not a credential: an unknown uid is 404.
      // Sign-in takes its API key in the body: with none, the body is refused (400), not the caller.
      async (r) => expectStatus(r.path.startsWith('/api/v2/webhooks/') ? 404 : r.path === '/api/v2/session' ? 400 : 200, await call(r, pathFor(r, org.name))),
    );
    expect(checked.map(describeRoute).sort()).toEqual([
      'GET /api/v2/doc',
      'GET /api/v2/doc/favicon-32x32.png',
      'GET /api/v2/doc/start.js',
      'GET /api/v2/doc/swagger-ui-bundle.js',
      'GET /api/v2/doc/swagger-ui.css',
      'GET /api/v2/log/keys',
      'GET /api/v2/openapi.json',
      'GET /health',
      'GET /metrics',
      'GET /ready',
      'POST /api/v2/session',
      'POST /api/v2/webhooks/launch-darkly/:hook_uid',
      'POST /api/v2/webhooks/sonar/:hook_uid',
    ]);
  });

  it('operator routes refuse an organization admin key', async () => {
    await everyRoute(
      (r) => r.policy.scope === 'operator',
      async (r) => expectStatus(401, await call(r, pathFor(r, org.name), org.adminKey)),
    );
  });

  it("every org-scoped route answers 403 to a key of another org's admin, and shows nothing of the org", async () => {
    const checked = await everyRoute(
      (r) => r.policy.scope === 'org-scoped',
      async (r) => {
        const res = await call(r, pathFor(r, org.name), other.adminKey);
        if (res.status !== 403) return expectStatus(403, res);
        const body = { message: "You don't have permission to access this resource", errors: null };
        return JSON.stringify(res.body) === JSON.stringify(body) ? undefined : `unexpected body ${JSON.stringify(res.body)}`;
      },
    );
    expect(checked.length).toBeGreaterThanOrEqual(13);
  });

  it('every org-scoped route answers 403 to a reader of the org when it needs more than reading', async () => {
    const reader = await addMember(t, org.name, 'reader');
    await everyRoute(
      // A write marked @RequiresRole('reader') is open to readers on purpose: the admission webhook (it writes
      // nothing) and PUT /user/{org} (a reader's own default org).
      (r) => r.policy.scope === 'org-scoped' && r.method !== 'GET' && r.policy.requiredRole !== 'reader',
      async (r) => expectStatus(403, await call(r, pathFor(r, org.name), reader)),
    );
  });

  it('every org-scoped route answers 404 for an unknown organization', async () => {
    const unknown = uniqueName('no-such-org');
    await everyRoute(
      (r) => r.policy.scope === 'org-scoped',
      async (r) => {
        const res = await call(r, pathFor(r, unknown), org.adminKey);
        if (res.status !== 404) return expectStatus(404, res);
        return res.body.message === `Organization '${unknown}' not found` ? undefined : `message ${res.body.message}`;
      },
    );
  });

  describe('a route that has no scope', () => {
    @Controller('planted')
    class PlantedController {
      // Looks org-scoped to a reader, but the org guard only knows `:org`.
      @Get(':organization/secrets')
      secrets(@Param('organization') organization: string) {
        return { secrets: `of ${organization}` };
      }
    }
    @Module({ controllers: [PlantedController] })
    class PlantedModule {}

    it('stops start-up with one line naming it', async () => {
      FEATURE_MODULES.push(PlantedModule);
      try {
        const started = createApp({ config: t.config, dataSource: t.dataSource, adminToken: t.adminToken, logger: new JsonLogger('silent') });
        await expect(started).rejects.toThrow(
          /^route GET \/api\/v2\/planted\/:organization\/secrets \(PlantedController\.secrets\) is refused: it has no :org path parameter/,
        );
        await expect(started).rejects.toThrow(/^[^\n]*$/);
      } finally {
        FEATURE_MODULES.splice(FEATURE_MODULES.indexOf(PlantedModule), 1);
      }
    });
  });
});
