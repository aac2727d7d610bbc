import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Security headers on every response (helmet). The API answers JSON and files, never HTML, so the content
 * security policy allows nothing at all: a response opened in a browser runs no script, loads nothing and
 * cannot be framed. A page that serves HTML (an API browser) sets its own policy on its own route.
 *
 * None of these headers depends on the request, so helmet runs once, at start-up, against a recording
 * response, and every request gets the recorded headers in one step: helmet's chain of a dozen middlewares per
 * request cost about 5% of the CPU of recording an attestation.
 */
export function securityHeaders(): RequestHandler {
  const helmetMiddleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] } },
    frameguard: { action: 'deny' },
    // Downloads and JSON are for API clients, not for embedding in other sites' pages.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' },
  });
  const headers: Array<[string, string]> = [];
  const removed: string[] = [];
  let finished = false;
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: (name: string) => removed.push(name),
  };
  helmetMiddleware({} as never, recorder as never, ((error?: unknown) => {
    if (error) throw error;
    finished = true;
  }) as never);
  // helmet's chain is synchronous; were it ever not, the recording would be incomplete: refuse to start.
  if (!finished || !headers.length) throw new Error('security headers: helmet did not run synchronously at start-up');
  return (_req, res, next) => {
    for (let i = 0; i < headers.length; i++) res.setHeader(headers[i][0], headers[i][1]);
    for (let i = 0; i < removed.length; i++) res.removeHeader(removed[i]);
    next();
  };
}
