import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { McpHttpEndpoint } from './http/mcp-http.endpoint';
import { mcpMethodNotAllowed } from './http/mcp-method-not-allowed';
import { McpController } from './mcp.controller';

/**
 * The MCP server at /mcp/{org}: an assistant's read-only view of one organization (tools with typed answers
 * that cite their records, and `veritrail://` resources), built in libs/mcp on the official SDK. It imports no
 * other module: its tools read through the service's own public API with the caller's key, so it owns no table
 * and reaches no facade (docs/choices.md, "The MCP server").
 */
@Module({
  controllers: [McpController],
  providers: [McpHttpEndpoint],
})
export class McpModule implements OnModuleInit {
  constructor(private readonly http: HttpAdapterHost) {}

  /** After the routes, before the not-found handler: GET and DELETE of /mcp/{org} answer 405 rather than 404. */
  onModuleInit(): void {
    this.http.httpAdapter?.getInstance().use('/mcp/:org', mcpMethodNotAllowed);
  }
}
