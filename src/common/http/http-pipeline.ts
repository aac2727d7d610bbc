import type { Express, NextFunction, Request, Response } from 'express';
import * as express from 'express';
import { randomUUID } from 'node:crypto';
import { NotFoundError, UnsupportedMediaTypeError } from '../errors/app-error';
import { sendError } from '../errors/send-error';
import { JsonLogger } from '../logging/json-logger';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const NUL_IN_PATH = /%00/i;

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * Express-level pieces that run before Nest's router: request id and access log, JSON body parsing that
 * also takes `null` and empty bodies (the open-source CLI sends both), paths with a NUL (404), the 415 rule,
 * and an error handler so body-parser failures get the same `{message, errors}` body as everything else.
 */
export function installHttpPipeline(app: Express, logger: JsonLogger, bodyLimitBytes: number): void {
  app.disable('x-powered-by');
  app.set('etag', false);

  const accessLog = logger.isLevelEnabled('info');
  app.use((req: Request, res: Response, next: NextFunction) => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    (req as any).requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    if (!accessLog) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info('request', {
        request_id: requestId,
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
        org: (req as any).org?.name,
      });
    });
    next();
  });

  // A NUL character in the path: every path parameter is a name, an id or an expression, and none can hold
  // one (PostgreSQL cannot even compare with it), so the path names nothing. Before routing, for every route.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (NUL_IN_PATH.test(req.path)) return next(new NotFoundError('Not found: a path with a NUL character (%00) names nothing'));
    next();
  });

  // The 415 rule, then JSON bodies; multipart bodies are left to the route that reads them.
  const json = express.json({ limit: bodyLimitBytes, strict: false, type: ['application/json', 'application/*+json'] });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    const type = (req.headers['content-type'] || '').split(';')[0].trim().toLowerCase();
    if (type === 'multipart/form-data') return next();
    if (type === 'application/json' || type.endsWith('+json')) return json(req, res, next);
    next(new UnsupportedMediaTypeError(`Content-Type '${type || '(none)'}' is not supported; send application/json`));
  });

  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    sendError(err, req, res, logger);
  });
}
