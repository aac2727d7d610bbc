import { trace } from '@opentelemetry/api';
import type { Express, NextFunction, Request, Response } from 'express';
import { Metrics } from './metrics';

/** The label of requests no route answered (404s, and requests refused before routing: 413, 415). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The route's template (`/api/v2/flows/:org`), never the URL: names in paths must not make new series. */
function routeTemplate(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? req.baseUrl + path : UNMATCHED_ROUTE;
}

/**
 * Runs before everything else: times every request, labels it with its route template once the router has
 * matched one, and names the trace's server span after that template too (when tracing is on; without an SDK
 * there is no span and this costs one lookup). Both happen as the answer is ended, before the HTTP
 * instrumentation closes the span.
 */
export function installHttpMetrics(app: Express, metrics: Metrics): void {
  app.use(httpMetrics(metrics));
}

/** The same as a middleware, to run as the first step of the HTTP pipeline (http-pipeline.ts). */
export function httpMetrics(metrics: Metrics): (req: Request, res: Response, next: NextFunction) => void {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const span = trace.getActiveSpan();
    const end = res.end;
    let recorded = false;
    res.end = function (this: Response, ...args: unknown[]) {
      if (!recorded) {
        recorded = true;
        const route = routeTemplate(req);
        if (span && route !== UNMATCHED_ROUTE) {
          span.setAttribute('http.route', route);
          span.updateName(`${req.method} ${route}`);
        }
        metrics.observeRequest(req.method, route, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
      }
      return (end as (...a: unknown[]) => Response).apply(this, args);
    } as Response['end'];
    next();
  };
}
