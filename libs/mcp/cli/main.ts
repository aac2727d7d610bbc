#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { VeritrailApi } from '../src/api-client';
import { createVeritrailMcpServer } from '../src/server';

/** The environment variable the stdio server reads the API key from (never a command-line argument: `ps` shows those). */
export const KEY_VARIABLE = 'VERITRAIL_API_KEY';

const USAGE = `usage: npm run --silent mcp -- --url <service base URL> --org <organization>
The API key is read from ${KEY_VARIABLE}. The server speaks MCP on standard input and output.`;

function parse(argv: string[]): { url: string; org: string } | string {
  const values: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const m = /^--(url|org)(?:=(.*))?$/.exec(arg);
    if (!m) return `unknown argument '${arg}'`;
    const value = m[2] ?? argv[++i];
    if (value === undefined || value === '') return `--${m[1]} needs a value`;
    values[m[1]] = value;
  }
  if (!values.url) return '--url is required';
  if (!values.org) return '--org is required';
  try {
    const url = new URL(values.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '--url must be an http or https URL';
  } catch {
    return `--url '${values.url}' is not a URL`;
  }
  return { url: values.url, org: values.org };
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  if (typeof args === 'string') {
    process.stderr.write(`veritrail mcp: ${args}\n${USAGE}\n`);
    process.exit(2);
  }
  const key = process.env[KEY_VARIABLE];
  if (!key) {
    process.stderr.write(`veritrail mcp: set ${KEY_VARIABLE} to an API key of a member of '${args.org}'\n${USAGE}\n`);
    process.exit(2);
  }
  const api = new VeritrailApi({ baseUrl: args.url, org: args.org, authorization: `Bearer ${key}` });
  const server = createVeritrailMcpServer(api, {
    // stdout carries the protocol: anything else goes to stderr, which assistants show in their logs.
    onUnexpectedError: (error, where) => process.stderr.write(`veritrail mcp: ${where}: ${(error as Error)?.stack ?? String(error)}\n`),
  });
  await server.connect(new StdioServerTransport());
  process.stderr.write(`veritrail mcp: serving organization '${args.org}' of ${args.url} on stdio\n`);
}

main().catch((error) => {
  process.stderr.write(`veritrail mcp: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
