import { Inject, Injectable } from '@nestjs/common';
import type { CookieOptions, Request, Response } from 'express';
import { CSRF_COOKIE, SESSION_COOKIE } from '../../common/auth/session-cookie';
import { APP_CONFIG, AppConfig } from '../../common/config/app-config';
import { newToken } from './domain/session-tokens';

/**
 * The two cookies of the web interface. The session cookie is HttpOnly (no script reads it) and SameSite=Strict
 * (no other site's page sends it); the anti-forgery cookie is readable by the page's own script, which repeats it
 * in the x-csrf-token header of every write, something another site cannot do. Both are Secure when the service
 * is reached over TLS (directly or, per PUBLIC_BASE_URL, behind a TLS-terminating proxy).
 */
@Injectable()
export class SessionCookies {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  set(req: Request, res: Response, session: { token: string; csrfToken: string; expiresAt: Date }): void {
    const base = this.options(req, session.expiresAt);
    res.cookie(SESSION_COOKIE, session.token, { ...base, httpOnly: true });
    res.cookie(CSRF_COOKIE, session.csrfToken, { ...base, httpOnly: false });
  }

  clear(req: Request, res: Response): void {
    const base = this.options(req);
    res.clearCookie(SESSION_COOKIE, { ...base, httpOnly: true });
    res.clearCookie(CSRF_COOKIE, { ...base, httpOnly: false });
  }

  /** The sign-in page's anti-forgery cookie, when the browser has none yet (sign-in must repeat it). */
  ensureCsrf(req: Request, res: Response, present: boolean): void {
    if (!present) res.cookie(CSRF_COOKIE, newToken(), { ...this.options(req), httpOnly: false });
  }

  private options(req: Request, expires?: Date): CookieOptions {
    const secure = req.secure || this.config.publicBaseUrl.startsWith('https:');
    return { path: '/', sameSite: 'strict', secure, ...(expires ? { expires } : {}) };
  }
}
