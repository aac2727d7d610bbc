import type { Request } from 'express';

/** The request's media type, lower case and without parameters (`multipart/form-data`), or '' without one. */
export function mediaType(req: Pick<Request, 'headers'>): string {
  return (req.headers['content-type'] || '').split(';')[0].trim().toLowerCase();
}
