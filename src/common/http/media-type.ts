import type { Request } from 'express';

// The last header seen and its media type: a request asks up to five times (body gate, JSON step, form reader),
// and clients send the same few headers over and over, so most calls are one string comparison.
let lastHeader = '';
let lastType = '';

/** The request's media type, lower case and without parameters (`multipart/form-data`), or '' without one. */
export function mediaType(req: Pick<Request, 'headers'>): string {
  const header = req.headers['content-type'];
  if (!header) return '';
  if (header === lastHeader) return lastType;
  const semicolon = header.indexOf(';');
  const type = (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  lastHeader = header;
  lastType = type;
  return type;
}
