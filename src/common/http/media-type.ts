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

// RFC 9110 §8.3.1: `type/subtype *( OWS ";" OWS [ name=value ] )`, value a token or a quoted-string. Visible ASCII
// only (no obs-text): the value is sent back as a response header, which Node refuses past latin-1 and with CR/LF.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\t \\x21-\\x7e])*"';
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*(?:${TOKEN}=(?:${TOKEN}|${QUOTED}))?)*$`);

/** Whether `value` is a media type as a Content-Type header may carry it (`text/plain; charset=utf-8`). */
export function isValidMediaType(value: string): boolean {
  return MEDIA_TYPE.test(value);
}
