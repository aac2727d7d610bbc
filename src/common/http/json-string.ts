import type { Response } from 'express';

/**
 * A "string body" (decisions.md) is a JSON string with `Content-Type: application/json`. Nest sends a returned
 * string as text/html, so routes either set the status and type here (`@Res({passthrough: true})`) ...
 */
export function jsonString(res: Response, status: number, message: string): string {
  res.status(status).type('application/json');
  return JSON.stringify(message);
}

/** ... or declare `@Header('Content-Type', 'application/json; charset=utf-8')` and return this. */
export function toJsonString(text: string): string {
  return JSON.stringify(text);
}
