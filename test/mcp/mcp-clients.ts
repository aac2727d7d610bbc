import Ajv from 'ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ROOT } from '../support/service-process';

/** How a test reaches the MCP server: over Streamable HTTP at /mcp/{org}, or through the stdio command. */
export type Connect = (baseUrl: string, org: string, key: string) => Promise<Client>;

export const overHttp: Connect = async (baseUrl, org, key) => {
  const client = new Client({ name: 'veritrail-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp/${org}`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return client;
};

/** `npm run --silent mcp -- --url <base> --org <org>` with the key in VERITRAIL_API_KEY, as an assistant starts it. */
export const overStdio: Connect = async (baseUrl, org, key) => {
  const client = new Client({ name: 'veritrail-test', version: '1.0.0' });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  await client.connect(
    new StdioClientTransport({
      command: 'npm',
      args: ['run', '--silent', 'mcp', '--', '--url', baseUrl, '--org', org],
      env: { ...env, VERITRAIL_API_KEY: key },
      cwd: ROOT,
      stderr: 'pipe',
    }),
  );
  return client;
};

const ajv = new Ajv({ allErrors: true, strict: false });

/**
 * Calls a tool and checks its answer's shape: a success has structured content valid against the tool's own
 * outputSchema (as listed by the server) and the same JSON as text; an error has a message and no stack trace.
 */
export async function call(client: Client, tools: Tool[], name: string, args: Record<string, unknown>): Promise<CallToolResult & { structured: any; text: string }> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  if (result.isError) {
    expect(result.structuredContent).toBeUndefined();
    expect(text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  } else {
    const validate = ajv.compile(tool.outputSchema as object);
    if (!validate(result.structuredContent)) throw new Error(`${name}: answer does not match its outputSchema: ${ajv.errorsText(validate.errors)}`);
    expect(JSON.parse(text)).toEqual(result.structuredContent);
  }
  return Object.assign(result, { structured: result.structuredContent as any, text });
}
