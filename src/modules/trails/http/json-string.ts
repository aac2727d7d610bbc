import type { Response } from 'express';

/**
 * A "string body" (decisions.md): a JSON string with `Content-Type: application/json`. Nest would send a
 * returned string as text/html, so routes with `@Res({passthrough: true})` return this instead.
 */
export function jsonString(res: Response, status: number, message: string): string {
  res.status(status).type('application/json');
  return JSON.stringify(message);
}
