/** The cookie that carries a web session (HttpOnly) and the header that must repeat its anti-forgery token. */
export const SESSION_COOKIE = 'vt_session';
export const CSRF_COOKIE = 'vt_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** One cookie's value from a Cookie header, or undefined. Values are not decoded: ours are base64url. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Methods that change nothing: a cookie-authenticated request with any other method must carry the CSRF header. */
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
