import { Controller, Get, INestApplication, Param } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { APP_CONFIG, loadConfig } from '../config/app-config';
import { AllExceptionsFilter } from '../errors/all-exceptions.filter';
import { JsonLogger } from '../logging/json-logger';
import { AdminTokenHolder } from './admin-token.holder';
import { CredentialVerifier, OrgDirectory, ResolvedOrg } from './auth-ports';
import { CurrentOrg, CurrentPrincipal, NotOrgScoped, Public } from './auth.decorators';
import { AuthenticationGuard } from './authentication.guard';
import { OrganizationGuard } from './organization.guard';
import { OrgContext, Principal } from './principal';
import { assertEveryRouteClassified, listRouteTable } from './route-table';

/** Routes a developer might plant by mistake: the guard must never let them through. */
@Controller('planted')
class PlantedController {
  @Get(':organization')
  leaky(@Param('organization') organization: string) {
    return { leaked: `data of ${organization}` };
  }

  @Public()
  @Get('public/:org')
  publicWithOrg(@Param('org') org: string) {
    return { leaked: `data of ${org}` };
  }
}

@Controller('fine')
class FineController {
  @Get(':org')
  scoped(@CurrentOrg() org: OrgContext) {
    return { org: org.name, role: org.role };
  }

  @NotOrgScoped('answers only who the caller is')
  @Get()
  me(@CurrentPrincipal() principal: Principal, @CurrentOrg() org: OrgContext | undefined) {
    return { who: principal.name, org: org ?? null };
  }
}

const acme: ResolvedOrg = { id: 'org-1', name: 'acme', region: 'eu', features: [] };

class StubVerifier extends CredentialVerifier {
  async verify(key: string): Promise<Principal | null> {
    return key === 'good-key' ? { kind: 'user', id: 'u1', name: 'ann@acme.example', keyId: 'k1' } : null;
  }
}
class StubDirectory extends OrgDirectory {
  async findByName(name: string) {
    return name === acme.name ? acme : null;
  }
  async roleOf() {
    return 'reader' as const;
  }
}
class CapturingLogger extends JsonLogger {
  readonly errors: Record<string, unknown>[] = [];
  constructor() {
    super('silent');
  }
  override error(_msg: unknown, fields?: Record<string, unknown> | string): void {
    if (typeof fields === 'object') this.errors.push(fields);
  }
}

describe('OrganizationGuard fails closed', () => {
  let app: INestApplication;
  const logger = new CapturingLogger();
  const get = (path: string, key?: string) => {
    const req = request(app.getHttpServer()).get(path);
    return key ? req.set('Authorization', `Bearer ${key}`) : req;
  };

  beforeAll(async () => {
    const module = await Test.createTestingModule({
      controllers: [PlantedController, FineController],
      providers: [
        { provide: APP_CONFIG, useValue: loadConfig({}) },
        { provide: AdminTokenHolder, useValue: new AdminTokenHolder('operator-token-0123456789') },
        { provide: CredentialVerifier, useClass: StubVerifier },
        { provide: OrgDirectory, useClass: StubDirectory },
        { provide: JsonLogger, useValue: logger },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_GUARD, useClass: AuthenticationGuard },
        { provide: APP_GUARD, useClass: OrganizationGuard },
      ],
    }).compile();
    app = module.createNestApplication({ logger: false });
    await app.init();
  });
  afterAll(() => app.close());

  it('a route with :organization instead of :org answers 500 to a valid key, never its data', async () => {
    const res = await get('/planted/acme', 'good-key');
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('data of');
    expect(logger.errors.at(-1)).toMatchObject({
      error: expect.stringMatching(/^Route GET \/planted\/:organization is refused: it has no :org path parameter/),
    });
  });

  it('... and 401 without a credential (authentication still comes first)', async () => {
    expect((await get('/planted/acme')).status).toBe(401);
  });

  it('a @Public() route with an :org parameter answers 500, even without a credential', async () => {
    const res = await get('/planted/public/acme');
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('data of');
  });

  it('org-scoped and @NotOrgScoped routes work as declared', async () => {
    expect((await get('/fine/acme', 'good-key')).body).toEqual({ org: 'acme', role: 'reader' });
    expect((await get('/fine/nope', 'good-key')).status).toBe(404);
    expect((await get('/fine/acme')).status).toBe(401);
    expect((await get('/fine', 'good-key')).body).toEqual({ who: 'ann@acme.example', org: null });
    expect((await get('/fine')).status).toBe(401);
  });

  it('the start-up check names every refused route in one line', () => {
    const routes = listRouteTable(app, { prefix: 'api/v2', exclude: [] });
    expect(routes.map((r) => [r.method, r.path, r.policy.scope ?? 'refused']).sort()).toEqual([
      ['GET', '/api/v2/fine', 'not-org-scoped'],
      ['GET', '/api/v2/fine/:org', 'org-scoped'],
      ['GET', '/api/v2/planted/:organization', 'refused'],
      ['GET', '/api/v2/planted/public/:org', 'refused'],
    ]);
    let message = '';
    try {
      assertEveryRouteClassified(routes);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toContain('\n');
    expect(message).toContain('route GET /api/v2/planted/:organization (PlantedController.leaky) is refused');
    expect(message).toContain('route GET /api/v2/planted/public/:org (PlantedController.publicWithOrg) is refused');
  });
});
