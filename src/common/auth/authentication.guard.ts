import { CanActivate, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { timingSafeEqual } from 'node:crypto';
import { ForbiddenError, UnauthorizedError } from '../errors/app-error';
import { AnonymousRateLimit } from '../http/rate-limit';
import { AdminTokenHolder } from './admin-token.holder';
import { CredentialVerifier, SessionVerifier } from './auth-ports';
import { parseAuthorization } from './credentials';
import { routePolicy } from './route-policy';
import { CSRF_HEADER, readCookie, SAFE_METHODS, SESSION_COOKIE } from './session-cookie';

/** First global guard: who is calling (401 when nobody valid). */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(CredentialVerifier) private readonly verifier: CredentialVerifier,
    @Inject(AdminTokenHolder) private readonly adminToken: AdminTokenHolder,
    @Optional() private readonly anonymousLimit?: AnonymousRateLimit,
    @Optional() @Inject(SessionVerifier) private readonly sessions?: SessionVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      return await this.authenticate(context);
    } catch (error) {
      // Past the per-address limit of requests without a valid credential, 429 replaces the 401.
      if (error instanceof UnauthorizedError) {
        const req = context.switchToHttp().getRequest();
        // Counted here once: the exception filter counts the 401s that routes checking a credential themselves raise.
        req.anonymousCounted = true;
        await this.anonymousLimit?.hit(req);
      }
      throw error;
    }
  }

  private async authenticate(context: ExecutionContext): Promise<boolean> {
    const policy = routePolicy(this.reflector, context);
    if (policy.isPublic) return true;
    const req = context.switchToHttp().getRequest();
    const credential = parseAuthorization(req.headers.authorization);

    if (policy.operatorOnly) {
      if (credential.scheme !== 'bearer' || !safeEqual(credential.key, this.adminToken.value)) {
        throw new UnauthorizedError('A valid operator token is required');
      }
      req.operator = true;
      return true;
    }

    const basicAllowed = policy.basicAuthAllowed;
    const scheme = basicAllowed ? 'Bearer, Basic' : 'Bearer';
    switch (credential.scheme) {
      case 'none': {
        // The web interface's session cookie stands for the API key it was exchanged for; with no Authorization
        // header only. A write sent with it must repeat the session's anti-forgery token in a header.
        const session = readCookie(req.headers.cookie, SESSION_COOKIE);
        if (session && this.sessions) {
          const found = await this.sessions.verify(session);
          if (!found) throw new UnauthorizedError('The session has ended or its API key is no longer valid; sign in again', scheme);
          if (!SAFE_METHODS.has(req.method) && !found.csrfMatches(headerValue(req.headers[CSRF_HEADER]))) {
            throw new ForbiddenError(`A request authenticated by the session cookie must send the ${CSRF_HEADER} header`);
          }
          req.principal = found.principal;
          return true;
        }
        throw new UnauthorizedError('Authentication required: send Authorization: Bearer <API key>', scheme);
      }
      case 'invalid':
        throw new UnauthorizedError(credential.reason, scheme);
      case 'basic': {
        if (!basicAllowed) throw new UnauthorizedError('This route accepts Bearer authentication only', scheme);
        for (const candidate of credential.candidates) {
          const principal = await this.verifier.verify(candidate);
          if (principal) {
            req.principal = principal;
            return true;
          }
        }
        throw new UnauthorizedError('Invalid, expired or revoked API key', scheme);
      }
      case 'bearer': {
        const principal = await this.verifier.verify(credential.key);
        if (!principal) throw new UnauthorizedError('Invalid, expired or revoked API key', scheme);
        req.principal = principal;
        return true;
      }
    }
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
