import type { Express, NextFunction, Request, Response } from 'express';
import * as express from 'express';
import { randomUUID } from 'node:crypto';
import { BadRequestError, NotFoundError, UnsupportedMediaTypeError } from '../errors/app-error';
import { sendError } from '../errors/send-error';
import { JsonLogger } from '../logging/json-logger';
import { requestContext } from '../logging/request-context';
import { bodyGate, hasBody } from './body-gate';
import { keepWebhookBody } from './raw-json-body';
import { mediaType } from './media-type';
import { securityHeaders } from './security-headers';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const NUL_IN_PATH = /%00/i;

type Step = (req: Request, res: Response, next: NextFunction) => void;

/**
 * Express-level pieces that run before Nest's router: security headers, request id and access log, the body gate (Content-Encoding
 * 415, wire size 413), JSON body parsing that also takes `null` and empty bodies (the open-source CLI sends both)
 * and decodes gzip, deflate and br, paths with a NUL (404), the 415 rule, and an error handler so body-parser failures get the same
 * `{message, errors}` body as everything else.
 *
 * The steps run in one Express layer (`first`, the request metrics, before them): each layer the router walks costs
 * a path match and its bookkeeping per request, and these steps apply to every path anyway.
 */
export function installHttpPipeline(app: Express, logger: JsonLogger, bodyLimitBytes: number, first?: Step): void {
  app.disable('x-powered-by');
  app.set('etag', false);

  const accessLog = logger.isLevelEnabled('info');
  const requestId: Step = (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    (req as any).requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    // Everything downstream runs in the request's context, so every line it logs carries request_id.
    if (!accessLog) return requestContext.run({ requestId }, next);
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
    requestContext.run({ requestId }, next);
  };

  // HTTP/1.1 requires a Host header (RFC 9112, 3.2); Node's own check is off so that the answer has a body.
  const hostRequired: Step = (req, res, next) => {
    if (req.httpVersion !== '1.1' || typeof req.headers.host === 'string') return next();
    res.setHeader('Connection', 'close');
    next(new BadRequestError('An HTTP/1.1 request must carry a Host header'));
  };

  // A NUL character in the path: every path parameter is a name, an id or an expression, and none can hold
  // one (PostgreSQL cannot even compare with it), so the path names nothing. Before routing, for every route.
  const nulInPath: Step = (req, res, next) => {
    if (NUL_IN_PATH.test(req.path)) return next(new NotFoundError('Not found: a path with a NUL character (%00) names nothing'));
    next();
  };

  // The 415 rule, then JSON bodies; multipart bodies are left to the route that reads them.
  const json = express.json({ limit: bodyLimitBytes, strict: false, type: ['application/json', 'application/*+json', 'application/csp-report'], verify: keepWebhookBody });
  const jsonBody: Step = (req, res, next) => {
    if (!hasBody(req)) return next();
    const type = mediaType(req);
    if (type === 'multipart/form-data') return next();
    // application/csp-report: what browsers send to the web interface's CSP report endpoint (JSON too).
    if (type === 'application/json' || type.endsWith('+json') || type === 'application/csp-report') return json(req, res, next);
    next(new UnsupportedMediaTypeError(`Content-Type '${type || '(none)'}' is not supported; send application/json`));
  };

  const steps: Step[] = [
    ...(first ? [first] : []),
    securityHeaders(),
    requestId,
    hostRequired,
    bodyGate(bodyLimitBytes, (error, req, res) => sendError(error, req, res, logger)),
    nulInPath,
    jsonBody,
  ];
  app.use(inOnePass(steps));

  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    sendError(err, req, res, logger);
  });
}

/** Runs the steps in order as one middleware; an error (or 'route'/'router') leaves for Express at once. */
function inOnePass(steps: Step[]): Step {
  return (req, res, done) => {
    let i = 0;
    const next = (error?: unknown) => {
      if (error !== undefined && error !== null) return done(error);
      if (i === steps.length) return done();
      steps[i++](req, res, next);
    };
    next();
  };
}
