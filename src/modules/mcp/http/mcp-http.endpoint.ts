import { Inject, Injectable } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { VeritrailApi } from '../../../../libs/mcp/src/api-client';
import { createVeritrailMcpServer } from '../../../../libs/mcp/src/server';
import { OrgContext } from '../../../common/auth/principal';
import { APP_CONFIG, AppConfig } from '../../../common/config/app-config';
import { UnsupportedMediaTypeError, ValidationError } from '../../../common/errors/app-error';
import { JsonLogger } from '../../../common/logging/json-logger';
import { McpMessageDto } from '../dto/mcp-message.request.dto';
import { McpNotAcceptableError } from './mcp-errors';

/**
 * Serves one MCP message over Streamable HTTP, statelessly: a fresh MCP server per request, bound to the org the
 * guards resolved and to the caller's own credential. Its tools call the service's public API over loopback with
 * that credential, so the API's authentication, roles, rate limits, beta features and error messages apply to
 * every answer unchanged (docs/choices.md, "The MCP server").
 *
 * What the SDK's transport would refuse in its own JSON-RPC error shape (Accept, Content-Type, the message
 * shape) is refused here first with the API's error body, like every other route.
 */
@Injectable()
export class McpHttpEndpoint {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly logger: JsonLogger,
  ) {}

  async serve(org: OrgContext, message: McpMessageDto, req: Request, res: Response): Promise<void> {
    const accept = String(req.headers.accept ?? '');
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) throw new McpNotAcceptableError();
    if (!String(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
      throw new UnsupportedMediaTypeError('Content-Type must be application/json for MCP messages');
    }
    if (message.method === undefined && (message.id === undefined || (message.result === undefined && message.error === undefined))) {
      throw new ValidationError({ method: 'a request or notification needs a method; a response needs an id and a result or an error' });
    }

    const api = new VeritrailApi({
      baseUrl: loopbackOf(req),
      citeBaseUrl: this.config.publicBaseUrl,
      org: org.name,
      authorization: String(req.headers.authorization),
      requestId: (req as unknown as { requestId?: string }).requestId,
    });
    const server = createVeritrailMcpServer(api, {
      onUnexpectedError: (error, where) => this.logger.error('mcp tool failed', { org: org.name, tool: where, error: (error as Error)?.stack ?? String(error) }),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }
}

/** This server as the request reached it (its own socket's address), for the tools' calls to the API. */
function loopbackOf(req: Request): string {
  const socket = req.socket as Request['socket'] & { encrypted?: boolean };
  let host = socket.localAddress ?? '127.0.0.1';
  if (host.startsWith('::ffff:')) host = host.slice('::ffff:'.length);
  if (host.includes(':')) host = `[${host}]`;
  return `${socket.encrypted ? 'https' : 'http'}://${host}:${socket.localPort}`;
}
