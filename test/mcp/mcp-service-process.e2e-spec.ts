import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ServiceProcess, startService } from '../support/service-process';
import type { TestApp } from '../support/test-app';
import { call, overHttp, overStdio } from './mcp-clients';
import { seedWorld } from './mcp-world';

/**
 * The MCP server of the service as `npm start` runs it (`node dist/src/main.js`, listening on every address):
 * its /mcp tools reach the service's API over the socket they came in on, and the stdio command reaches it from
 * outside; both give the gate's answer for a seeded artifact.
 */
describe('MCP on the service process', () => {
  let service: ServiceProcess;
  const clients: Client[] = [];

  afterAll(async () => {
    for (const client of clients) await client.close();
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  });

  it('answers over Streamable HTTP and over stdio', async () => {
    const adminToken = `mcp-operator-${randomBytes(8).toString('hex')}`;
    service = await startService({ env: { DATABASE_URL: process.env.TEST_DATABASE_URL!, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn' } });
    expect(await service.ready()).toBe(true);
    const baseUrl = `http://127.0.0.1:${service.port}`;
    const w = await seedWorld({ http: () => request(baseUrl), adminToken } as unknown as TestApp, 'p');
    for (const connect of [overHttp, overStdio]) {
      const client = await connect(baseUrl, w.org.name, w.org.adminKey);
      clients.push(client);
      const tools = (await client.listTools()).tools;
      const gate = await call(client, tools, 'check_deployment_gate', { fingerprint: w.failingFingerprint, environment: w.env });
      expect(gate.structured).toMatchObject({ allowed: false, unmet_rules: [expect.objectContaining({ policy: w.policyName, rule: 'trail-compliance' })] });
      const trail = await call(client, tools, 'explain_trail_compliance', { flow: w.flow, trail: 'no-such-trail' });
      expect([trail.isError, trail.text]).toEqual([true, expect.stringMatching(/^The Veritrail API answered 404: /)]);
    }
    expect(service.stderr()).not.toMatch(/mcp tool failed/);
  }, 240_000);
});
