import type { Request, Response } from 'express';
import { JsonLogger } from '../logging/json-logger';
import { AppError } from './app-error';
import { toErrorResponse } from './error-response';
import type { ResourceRefusals } from './resource-refusals';

/**
 * Shared by the Nest filter and the express error middleware (body parsing happens before Nest routes).
 * `refusals` (the filter has it) logs refusals for lack of resources once per incident instead of per request.
 */
export function sendError(error: unknown, req: Request, res: Response, logger: JsonLogger, refusals?: ResourceRefusals): void {
  const rendered = toErrorResponse(error);
  if (rendered.refusedForResources) {
    const context = { requestId: (req as any).requestId, method: req.method, path: req.originalUrl.split('?')[0] };
    if (refusals) refusals.record(rendered.refusedForResources, context);
    else logger.warn(rendered.body.message, { request_id: context.requestId, error: rendered.refusedForResources.detail });
  } else if (rendered.unexpected) {
    const e = rendered.unexpected.error as Error;
    logger.error('unexpected error', {
      error_id: rendered.unexpected.errorId,
      request_id: (req as any).requestId,
      method: req.method,
      path: req.originalUrl,
      error: e?.message,
      stack: e?.stack,
    });
  } else if (rendered.refusedByDatabase) {
    const e = rendered.refusedByDatabase as { code?: unknown; message?: unknown; driverError?: { code?: unknown } };
    logger.warn('input refused by the database (an edge check is missing)', {
      request_id: (req as any).requestId,
      method: req.method,
      path: req.originalUrl.split('?')[0],
      sqlstate: e?.driverError?.code ?? e?.code,
      error: e?.message,
    });
  } else if (rendered.status === 503) {
    // Which dependency is down, by the error's stable code (`database_unavailable`, `evidence_store_unavailable`).
    const what = error instanceof AppError ? error.code.replace(/_/g, ' ') : 'database unavailable';
    logger.warn(what, { request_id: (req as any).requestId, error: (error as Error)?.message });
  } else if (rendered.status >= 500) {
    // A server-side fault the code knows by name (a stored file that fails its checksum): error level, no stack.
    logger.error(error instanceof AppError ? error.code.replace(/_/g, ' ') : 'server error', { request_id: (req as any).requestId, error: (error as Error)?.message });
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  for (const [name, value] of Object.entries(rendered.headers)) res.setHeader(name, value);
  res.status(rendered.status).json(rendered.body);
}
