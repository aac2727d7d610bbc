import { AppError } from '../../../common/errors/app-error';

/** Streamable HTTP: a client must accept both a JSON answer and an event stream. */
export class McpNotAcceptableError extends AppError {
  readonly status = 406;
  readonly code = 'MCP.NOT_ACCEPTABLE';
  constructor() {
    super('Not acceptable: an MCP client must send Accept: application/json, text/event-stream');
  }
}
