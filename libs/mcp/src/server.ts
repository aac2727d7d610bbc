import Ajv, { ValidateFunction } from 'ajv';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ApiError, VeritrailApi } from './api-client';
import { matchResource, RESOURCE_TEMPLATES, resourceUri } from './resources';
import { InvalidArgumentError, TOOLS, ToolDefinition } from './tools';

export const SERVER_NAME = 'veritrail';
export const SERVER_VERSION = '0.1.0';
/** Resources listed by `resources/list` per kind (the templates reach every other record). */
const LISTED_PER_KIND = 50;

const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false });
const compiled = new Map<ToolDefinition, { input: ValidateFunction; output: ValidateFunction }>();
function validatorsOf(tool: ToolDefinition) {
  let v = compiled.get(tool);
  if (!v) compiled.set(tool, (v = { input: ajv.compile(tool.inputSchema), output: ajv.compile(tool.outputSchema) }));
  return v;
}

export interface VeritrailMcpOptions {
  /** Told about errors that are not the API's (a bug here): logged by the caller; the assistant sees a short message. */
  onUnexpectedError?: (error: unknown, where: string) => void;
}

const toolError = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/**
 * The MCP server of one organization over the service's public API, with the caller's credential: read-only
 * tools with input and output schemas, and the org's records as `veritrail://` resources. The same server runs
 * in the service (Streamable HTTP at /mcp/{org}) and beside an assistant (stdio, `npm run mcp`).
 */
export function createVeritrailMcpServer(api: VeritrailApi, options: VeritrailMcpOptions = {}): Server {
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION, title: 'Veritrail' },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        `Veritrail records software delivery evidence for organization '${api.org}': flows, trails (one change or release), ` +
        'artifacts (by SHA-256 fingerprint), attestations, environments and what runs in them, policies and decisions. ' +
        'Every tool is read-only and cites the API records its answer rests on (URL and SHA-256 of the answer); ' +
        'quote them when you answer. Lists are paged: ask for the next page when has_more is true.',
    },
  );
  const unexpected = (error: unknown, where: string) => {
    options.onUnexpectedError?.(error, where);
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as any,
      outputSchema: t.outputSchema as any,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${request.params.name}'; tools/list names them`);
    const { input, output } = validatorsOf(tool);
    const args = structuredClone(request.params.arguments ?? {});
    if (!input(args)) {
      const problems = (input.errors ?? []).map((e) => `${e.instancePath || '(arguments)'} ${e.message}`).join('; ');
      return toolError(`Invalid arguments for ${tool.name}: ${problems}`);
    }
    try {
      const structured = await tool.run(api, args);
      if (!output(structured)) {
        unexpected(new Error(`${tool.name} answer does not match its outputSchema: ${ajv.errorsText(output.errors)}`), tool.name);
        return toolError(`${tool.name} could not build its answer; the error is in the service's log`);
      }
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    } catch (error) {
      if (error instanceof ApiError) return toolError(`The Veritrail API answered ${error.status}: ${error.message}`);
      if (error instanceof InvalidArgumentError) return toolError(`Invalid arguments for ${tool.name}: ${error.message}`);
      unexpected(error, tool.name);
      return toolError(`${tool.name} failed unexpectedly; the error is in the service's log`);
    }
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: RESOURCE_TEMPLATES.map((t) => ({
      uriTemplate: t.uriTemplate,
      name: t.name,
      title: t.title,
      description: `${t.description}. {org} is '${api.org}'.`,
      mimeType: 'application/json',
    })),
  }));

  // The org's policies and its environments' latest snapshots, the entry points; trails and artifacts are many,
  // and are reached through their templates (from the tools' answers).
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const snapshot = RESOURCE_TEMPLATES.find((t) => t.name === 'snapshot')!;
    const policy = RESOURCE_TEMPLATES.find((t) => t.name === 'policy')!;
    const resources: { uri: string; name: string; mimeType: string }[] = [];
    try {
      const policies = await api.getJson<any[]>(api.path(['policies', api.org]));
      for (const p of policies.body.slice(0, LISTED_PER_KIND)) {
        resources.push({ uri: resourceUri(policy, { org: api.org, policy: p.name }), name: `policy ${p.name}`, mimeType: 'application/json' });
      }
      const envs = await api.getJson<any[]>(api.path(['environments', api.org]));
      for (const e of envs.body.slice(0, LISTED_PER_KIND)) {
        resources.push({
          uri: resourceUri(snapshot, { org: api.org, environment: e.name, snapshot: 'latest' }),
          name: `environment ${e.name} now`,
          mimeType: 'application/json',
        });
      }
    } catch (error) {
      throw asMcpError(error, unexpected);
    }
    return { resources };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const match = matchResource(uri);
    if (!match) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource '${uri}': the templates are ${RESOURCE_TEMPLATES.map((t) => t.uriTemplate).join(', ')}`);
    }
    if (match.vars.org !== api.org) {
      throw new McpError(ErrorCode.InvalidParams, `This server answers for organization '${api.org}', not '${match.vars.org}'`);
    }
    try {
      const answer = await api.getText(match.template.path(api, match.vars));
      return {
        contents: [{ uri, mimeType: 'application/json', text: answer.body, _meta: { api_url: answer.citation.url, sha256: answer.citation.sha256 } }],
      };
    } catch (error) {
      throw asMcpError(error, unexpected);
    }
  });

  return server;
}

/** An API refusal as an MCP error with the API's message (a not-found is the protocol's resource-not-found). */
function asMcpError(error: unknown, unexpected: (error: unknown, where: string) => void): McpError {
  if (error instanceof ApiError) {
    return new McpError(error.status === 404 ? -32002 : ErrorCode.InvalidRequest, `The Veritrail API answered ${error.status}: ${error.message}`);
  }
  unexpected(error, 'resources');
  return new McpError(ErrorCode.InternalError, "Reading the resource failed unexpectedly; the error is in the service's log");
}
