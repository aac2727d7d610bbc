import { Module } from '@nestjs/common';
import { McpHttpEndpoint } from './http/mcp-http.endpoint';
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
export class McpModule {}
