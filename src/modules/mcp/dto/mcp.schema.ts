import { anyJson, describe, integer, object, oneOf, string } from '../../../common/openapi/response-schema';

const id = describe({ type: ['string', 'integer'] }, 'The id of the request it answers');

/**
 * What POST /mcp/{org} answers: the JSON-RPC response to a request (200, `application/json`), or nothing for a
 * notification or a response (202).
 */
export const MCP_RESPONSE_SCHEMA = describe(
  {
    oneOf: [
      object({ jsonrpc: oneOf('2.0'), id, result: anyJson }),
      object({ jsonrpc: oneOf('2.0'), id: describe({ type: ['string', 'integer', 'null'] }, 'The id of the request it answers'), error: object({ code: integer, message: string, data: anyJson }, ['data']) }),
    ],
  },
  'A JSON-RPC 2.0 response (MCP Streamable HTTP, JSON answers). Tool failures are results with `isError: true` and the API\'s message.',
);
