import type { Response } from 'express';

/**
 * Routes that answer with a short message (create flow, begin trail, report artifact, attest) send it as a
 * "string body": a JSON string (`"OK"` or a sentence) with `Content-Type: application/json`, since every response
 * of the API is JSON. Nest sends a returned string as text/html, so routes either set the status and type here
 * (`@Res({passthrough: true})`) ...
 */
export function jsonString(res: Response, status: number, message: string): string {
  res.status(status).type('application/json');
  return JSON.stringify(message);
}

/** ... or declare `@Header('Content-Type', 'application/json; charset=utf-8')` and return this. */
export function toJsonString(text: string): string {
  return JSON.stringify(text);
}

/** Create-or-update routes (create flow, begin trail): 201 when created, 200 when updated, as the CLI expects. */
export function createdOrUpdated(res: Response, result: { created: boolean; message: string }): string {
  return jsonString(res, result.created ? 201 : 200, result.message);
}
