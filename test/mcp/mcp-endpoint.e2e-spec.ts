import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { overHttp } from './mcp-clients';

const MCP_ACCEPT = 'application/json, text/event-stream';
const rpc = (method: string, params: Record<string, unknown> = {}, id: number | string = 1) => ({ jsonrpc: '2.0', id, method, params });
const errorBody = { message: expect.any(String), errors: null };

/**
 * POST /mcp/{org} as an HTTP route of the service: the guards in front of it (credential, organization and role,
 * rate limit), what it refuses before the MCP server reads a message, and the answers of a stateless server.
 */
describe('the MCP endpoint /mcp/{org}', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  const post = (orgName: string, body: unknown, key?: string, accept = MCP_ACCEPT) => {
    const req = t.http().post(`/mcp/${orgName}`).set('Accept', accept);
    if (key) req.set(...bearer(key));
    return req.send(body as object);
  };

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
    other = await createOrg(t);
  });
  afterAll(() => t?.close());

  it('answers initialize and a tool call as JSON, statelessly (no session to keep)', async () => {
    const init = await post(org.name, rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } }), org.adminKey).expect(200);
    expect(init.headers['content-type']).toMatch(/^application\/json/);
    expect(init.headers['mcp-session-id']).toBeUndefined();
    expect(init.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'veritrail' }, capabilities: { tools: {}, resources: {} } } });
    expect(init.body.result.instructions).toContain(org.name);
    const listed = await post(org.name, rpc('tools/list', {}, 2), org.adminKey).expect(200);
    expect(listed.body.result.tools).toHaveLength(9);
    const called = await post(org.name, rpc('tools/call', { name: 'find_artifact', arguments: { query: 'nothing-here' } }, 'c-3'), org.adminKey).expect(200);
    expect(called.body).toMatchObject({ id: 'c-3', result: { structuredContent: { matched_by: 'nothing', artifacts: [] } } });
    await post(org.name, { jsonrpc: '2.0', method: 'notifications/initialized' }, org.adminKey).expect(202);
    const unknown = await post(org.name, rpc('no/such/method', {}, 4), org.adminKey).expect(200);
    expect(unknown.body).toMatchObject({ id: 4, error: { code: -32601 } });
  });

  it('fails closed: no credential 401, another org 403, an unknown org 404, all with the error body', async () => {
    const anonymous = await post(org.name, rpc('tools/list')).expect(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(anonymous.body).toEqual(errorBody);
    expect((await post(org.name, rpc('tools/list'), other.adminKey).expect(403)).body).toEqual({ message: "You don't have permission to access this resource", errors: null });
    const unknownOrg = uniqueName('no-org');
    expect((await post(unknownOrg, rpc('tools/list'), org.adminKey).expect(404)).body).toEqual({ message: `Organization '${unknownOrg}' not found`, errors: null });
  });

  it("a service account's key reaches its own org's server only", async () => {
    await t.http().post(`/api/v2/service-accounts/${org.name}`).set(...bearer(org.adminKey)).send({ name: 'assistant', privilege: 'reader' }).expect(201);
    const key = (await t.http().post(`/api/v2/service-accounts/${org.name}/assistant/api-keys`).set(...bearer(org.adminKey)).send({ description: 'mcp' }).expect(201)).body.key;
    const client = await overHttp(t.baseUrl, org.name, key);
    try {
      expect((await client.listTools()).tools.length).toBe(9);
    } finally {
      await client.close();
    }
    await post(other.name, rpc('tools/list'), key).expect(403);
  });

  it('refuses what is not an MCP message over Streamable HTTP, with the error body', async () => {
    const noAccept = await post(org.name, rpc('tools/list'), org.adminKey, 'application/json').expect(406);
    expect(noAccept.body).toEqual({ message: 'Not acceptable: an MCP client must send Accept: application/json, text/event-stream', errors: null });
    expect((await post(org.name, [rpc('tools/list')], org.adminKey).expect(400)).body).toEqual({ message: 'Input payload validation failed', errors: { body: 'must be a JSON object' } });
    expect((await post(org.name, { jsonrpc: '1.0', method: 'tools/list' }, org.adminKey).expect(400)).body.errors).toEqual({ jsonrpc: "must be '2.0'" });
    expect((await post(org.name, { jsonrpc: '2.0', id: 1 }, org.adminKey).expect(400)).body.errors).toEqual({ method: expect.stringContaining('needs a method') });
    expect((await post(org.name, { ...rpc('tools/list'), extra: 1 }, org.adminKey).expect(400)).body.errors).toEqual({ extra: expect.any(String) });
    // No session and no event stream: GET and DELETE are 405 (Streamable HTTP's "not offered"), for anyone.
    for (const method of ['get', 'delete'] as const) {
      const res = await t.http()[method](`/mcp/${org.name}`).set('Accept', 'text/event-stream').expect(405);
      expect([res.headers.allow, res.body.errors, res.body.message]).toEqual(['POST', null, expect.stringMatching(/^Method not allowed/)]);
    }
    const text = await t.http().post(`/mcp/${org.name}`).set('Accept', MCP_ACCEPT).set(...bearer(org.adminKey)).set('Content-Type', 'text/plain').send('hello').expect(415);
    expect(text.body).toEqual(errorBody);
  });
});

describe('the MCP endpoint under the rate limit', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('counts /mcp and the API requests its tools make against the caller\'s key; past the limit a tool answers the API\'s 429, then /mcp itself', async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '3600' });
    const org = await createOrg(t);
    const call = (id: number) =>
      t.http().post(`/mcp/${org.name}`).set('Accept', MCP_ACCEPT).set(...bearer(org.adminKey)).send(rpc('tools/call', { name: 'find_artifact', arguments: { query: 'abcdef0123' } }, id));
    // 1: /mcp, 2: the search it makes.
    expect((await call(1).expect(200)).body.result.structuredContent).toMatchObject({ matched_by: 'nothing' });
    // 3: /mcp passes, 4: its search is refused; the tool says so with the API's message.
    const limited = (await call(2).expect(200)).body.result;
    expect(limited).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^The Veritrail API answered 429: Too many requests: at most 3 per 3600 s/) }] });
    const refused = await call(3).expect(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.body).toEqual({ message: expect.stringMatching(/^Too many requests/), errors: null });
  });
});
