import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Security headers on every response (helmet). The API answers JSON and files, never HTML, so the content
 * security policy allows nothing at all: a response opened in a browser runs no script, loads nothing and
 * cannot be framed. A page that serves HTML (an API browser) sets its own policy on its own route.
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] } },
    frameguard: { action: 'deny' },
    // Downloads and JSON are for API clients, not for embedding in other sites' pages.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' },
  });
}
