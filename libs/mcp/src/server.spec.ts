import { spawnSync } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { VeritrailApi } from './api-client';
import { matchResource, RESOURCE_TEMPLATES, resourceUri } from './resources';
import { createVeritrailMcpServer } from './server';

/** A stand-in API that answers every request with `answer` and remembers what it was asked. */
async function fakeApi(answer: (req: http.IncomingMessage) => { status: number; body: string }) {
  const seen: { url: string; authorization?: string }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url!, authorization: req.headers.authorization });
    const { status, body } = answer(req);
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function connected(baseUrl: string, unexpected: unknown[] = []) {
  const api = new VeritrailApi({ baseUrl, citeBaseUrl: 'https://veritrail.example', org: 'acme', authorization: 'Bearer vtk_test' });
  const server = createVeritrailMcpServer(api, { onUnexpectedError: (error) => unexpected.push(error) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'spec', version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

const textOf = (result: any) => result.content.map((c: any) => c.text).join('');

describe('the MCP server (libs/mcp)', () => {
  it("passes the API's message and field errors on as a tool error, with the caller's credential sent", async () => {
    const api = await fakeApi(() => ({ status: 400, body: JSON.stringify({ message: 'Input payload validation failed', errors: { 'query.from': 'bad snapshot' } }) }));
    try {
      const client = await connected(api.url);
      const result = await client.callTool({ name: 'environment_changes', arguments: { environment: 'prod', from: 'x' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('The Veritrail API answered 400: Input payload validation failed (query.from: bad snapshot)');
      expect(api.seen).toEqual([{ url: '/api/v2/environments/acme/prod/diff?from=x&to=latest', authorization: 'Bearer vtk_test' }]);
    } finally {
      await api.close();
    }
  });

  it('answers a failure of its own with one sentence, never a stack trace, and reports it to the caller', async () => {
    const api = await fakeApi(() => ({ status: 200, body: 'not json at all' }));
    const unexpected: unknown[] = [];
    try {
      const client = await connected(api.url, unexpected);
      const result = await client.callTool({ name: 'explain_trail_compliance', arguments: { flow: 'f', trail: 't' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe("explain_trail_compliance failed unexpectedly; the error is in the service's log");
      expect(unexpected).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it('says when the API cannot be reached, and refuses unknown tools and arguments outside the schema', async () => {
    const api = await fakeApi(() => ({ status: 200, body: '{}' }));
    const url = api.url;
    await api.close();
    const client = await connected(url);
    const unreachable = await client.callTool({ name: 'find_artifact', arguments: { query: 'web' } });
    expect(textOf(unreachable)).toMatch(/^The Veritrail API answered 503: The Veritrail API could not be reached \(ECONNREFUSED\)$/);
    await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow(/Unknown tool 'delete_everything'/);
    const extra = await client.callTool({ name: 'explain_trail_compliance', arguments: { flow: 'f', trail: 't', sql: 'drop table' } });
    expect(textOf(extra)).toBe('Invalid arguments for explain_trail_compliance: (arguments) must NOT have additional properties');
  });

  it('encodes names into API paths and resource URIs, and reads URIs back', () => {
    const api = new VeritrailApi({ baseUrl: 'http://x', org: 'acme', authorization: 'Bearer k' });
    expect(api.path(['trails', 'acme', 'a/b', 'c d'], { page: 1, skip: undefined })).toBe('/api/v2/trails/acme/a%2Fb/c%20d?page=1');
    const trail = RESOURCE_TEMPLATES.find((t) => t.name === 'trail')!;
    const uri = resourceUri(trail, { org: 'acme', flow: 'a/b', trail: 'v1.0 rc' });
    expect(uri).toBe('veritrail://acme/trails/a%2Fb/v1.0%20rc');
    expect(matchResource(uri)).toEqual({ template: trail, vars: { org: 'acme', flow: 'a/b', trail: 'v1.0 rc' } });
    expect(matchResource('veritrail://acme/trails/only-flow')).toBeNull();
    expect(matchResource('veritrail://acme/trails//t')).toBeNull();
    expect(matchResource('https://acme/trails/f/t')).toBeNull();
  });

  it('the stdio command refuses to start without a URL, an org or a key, saying what is missing', () => {
    const cli = path.join(__dirname, '../cli/main.ts');
    const run = (args: string[], env: Record<string, string | undefined> = {}) =>
      spawnSync(process.execPath, [require.resolve('ts-node/dist/bin.js'), '--transpile-only', cli, ...args], {
        env: { ...process.env, VERITRAIL_API_KEY: undefined, ...env },
        encoding: 'utf8',
        input: '',
      });
    const noKey = run(['--url', 'http://127.0.0.1:1', '--org', 'acme']);
    expect([noKey.status, noKey.stdout]).toEqual([2, '']);
    expect(noKey.stderr).toContain("set VERITRAIL_API_KEY to an API key of a member of 'acme'");
    const noOrg = run(['--url', 'http://127.0.0.1:1'], { VERITRAIL_API_KEY: 'vtk_x' });
    expect([noOrg.status, noOrg.stderr.split('\n')[0]]).toEqual([2, 'veritrail mcp: --org is required']);
    const badUrl = run(['--url', 'ftp://x', '--org', 'acme'], { VERITRAIL_API_KEY: 'vtk_x' });
    expect([badUrl.status, badUrl.stderr.split('\n')[0]]).toEqual([2, 'veritrail mcp: --url must be an http or https URL']);
  }, 60_000);
});
