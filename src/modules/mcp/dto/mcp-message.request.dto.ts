import { Equals, IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateBy } from 'class-validator';

/** A JSON-RPC id: a string or an integer. */
const IsJsonRpcId = () =>
  ValidateBy({
    name: 'isJsonRpcId',
    validator: {
      validate: (value: unknown) => (typeof value === 'string' && value.length <= 256) || (typeof value === 'number' && Number.isSafeInteger(value)),
      defaultMessage: () => 'must be a string (at most 256 characters) or an integer',
    },
  });

/**
 * One JSON-RPC 2.0 message of the Model Context Protocol, as a client POSTs it: a request (`method` and `id`),
 * a notification (`method`), or a response to the server (`id` with `result` or `error`). `params`, `result` and
 * `error` are the protocol's and are checked by the MCP server itself. Batches (arrays) are not taken: the
 * protocol's current revision dropped them.
 */
export class McpMessageDto {
  @Equals('2.0', { message: "must be '2.0'" })
  jsonrpc!: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  method?: string;

  @IsOptional()
  @IsJsonRpcId()
  id?: string | number;

  @IsOptional()
  @IsObject()
  params?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  result?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  error?: Record<string, unknown>;
}
