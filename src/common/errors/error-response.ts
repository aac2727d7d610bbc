import { HttpException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppError, FieldErrors } from './app-error';
import { isConcurrencyAbort, isDatabaseUnavailable, refusedByRule, refusedInput } from './database-errors';
import { InsufficientResourcesError, insufficientResources } from './resource-errors';

export interface ErrorResponse {
  status: number;
  body: { message: string; errors: FieldErrors | null; error_id?: string };
  headers: Record<string, string>;
  /** Set when PostgreSQL refused a value of the request that no edge check caught. */
  refusedByDatabase?: unknown;
  /** Set when the server lacked a resource (a full disk ...): counted, and logged once per incident. */
  refusedForResources?: InsufficientResourcesError;
  /** Set for unexpected errors: the id is in the body and in the log line, the stack only in the log. */
  unexpected?: { errorId: string; error: unknown };
}

const HTTP_MESSAGES: Record<number, string> = {
  400: 'Bad request',
  401: 'Authentication required',
  403: "You don't have permission to access this resource",
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Payload too large',
  415: 'Unsupported media type',
  429: 'Too many requests',
};

/** Errors raised by express middleware (body-parser, multer) carry a status or a code but no Nest type. */
function middlewareError(error: any): ErrorResponse | undefined {
  if (!error || typeof error !== 'object') return undefined;
  if (error.type === 'entity.too.large' || error.code === 'LIMIT_FILE_SIZE' || error.code === 'LIMIT_FIELD_VALUE') {
    return { status: 413, body: { message: 'Payload too large', errors: null }, headers: {} };
  }
  if (error.type === 'entity.parse.failed') {
    return { status: 400, body: { message: 'Request body is not valid JSON', errors: { body: String(error.message) } }, headers: {} };
  }
  // zlib's codes (Z_DATA_ERROR, Z_BUF_ERROR for a truncated stream, ERR__ERROR_FORMAT_... from brotli).
  if (typeof error.code === 'string' && /^(Z_|ERR__ERROR|ERR_BROTLI|ERR_ZLIB)/.test(error.code)) {
    return {
      status: 400,
      body: { message: 'The request body does not decompress as its Content-Encoding says', errors: { body: String(error.message) } },
      headers: {},
    };
  }
  if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
    return { status: 415, body: { message: String(error.message), errors: null }, headers: {} };
  }
  if (typeof error.code === 'string' && error.code.startsWith('LIMIT_')) {
    return { status: 400, body: { message: `Invalid multipart request: ${error.message}`, errors: error.field ? { [error.field]: error.message } : null }, headers: {} };
  }
  if (error.message === 'Unexpected end of form' || error.message === 'Multipart: Boundary not found') {
    return { status: 400, body: { message: `Invalid multipart request: ${error.message}`, errors: null }, headers: {} };
  }
  return undefined;
}

export function toErrorResponse(error: unknown): ErrorResponse {
  // First: a full disk surfaces as PostgreSQL's disk_full, a file system's ENOSPC or a bucket's answer, inside
  // whatever wrapper carried it up, and must never be a 500.
  const resources = insufficientResources(error);
  if (resources) {
    return { status: 503, body: { message: resources.message, errors: null }, headers: resources.headers, refusedForResources: resources };
  }
  if (error instanceof AppError) {
    return { status: error.status, body: { message: error.message, errors: error.errors }, headers: error.headers };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse() as any;
    let message = typeof response === 'string' ? response : response?.message;
    if (Array.isArray(message)) message = message.join('; ');
    return { status, body: { message: String(message || HTTP_MESSAGES[status] || 'Error'), errors: null }, headers: {} };
  }
  const fromMiddleware = middlewareError(error);
  if (fromMiddleware) return fromMiddleware;
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      body: { message: 'Database temporarily unavailable, please retry', errors: null },
      headers: { 'Retry-After': '5' },
    };
  }
  if (isConcurrencyAbort(error)) {
    return {
      status: 503,
      body: { message: 'The write met a concurrent one and was not kept, please retry', errors: null },
      headers: { 'Retry-After': '1' },
    };
  }
  const rule = refusedByRule(error);
  if (rule) return { status: 400, body: { message: rule, errors: null }, headers: {} };
  const refused = refusedInput(error);
  if (refused) {
    // Logged (see send-error): it means an edge check is missing for this input.
    return { status: 400, body: { message: `The request carries ${refused}`, errors: null }, headers: {}, refusedByDatabase: error };
  }
  const errorId = randomUUID();
  return {
    status: 500,
    body: { message: `Internal server error (error id ${errorId})`, errors: null, error_id: errorId },
    headers: {},
    unexpected: { errorId, error },
  };
}
