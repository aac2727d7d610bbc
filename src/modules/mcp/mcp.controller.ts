import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentOrg, RequiresRole } from '../../common/auth/auth.decorators';
import { OrgContext } from '../../common/auth/principal';
import { ApiErrors, ApiSuccess } from '../../common/openapi/response-schema';
import { McpMessageDto } from './dto/mcp-message.request.dto';
import { MCP_RESPONSE_SCHEMA } from './dto/mcp.schema';
import { McpHttpEndpoint } from './http/mcp-http.endpoint';

/**
 * The Model Context Protocol over Streamable HTTP, at /mcp/{org} (outside /api/v2, like the probes). A transport,
 * not a resource: the handler hands the request to the MCP endpoint instead of dispatching a query; every answer
 * it gives is built from the public API's queries (README "Ask Veritrail from an assistant").
 */
@Controller('mcp')
export class McpController {
  constructor(private readonly endpoint: McpHttpEndpoint) {}

  /** Read-only tools and resources, so a reader may call it; the API's own roles still apply to each tool. */
  @Post(':org')
  @RequiresRole('reader')
  @HttpCode(200)
  @ApiSuccess(MCP_RESPONSE_SCHEMA, { status: [200, 202] })
  @ApiErrors({ 406: 'The Accept header does not list both application/json and text/event-stream' })
  serve(@CurrentOrg() org: OrgContext, @Body() message: McpMessageDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.endpoint.serve(org, message, req, res);
  }
}
