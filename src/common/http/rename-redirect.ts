import { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { catchError, from, Observable, switchMap, throwError } from 'rxjs';
import { AppError, NotFoundError } from '../errors/app-error';
import type { OrgContext } from '../auth/principal';

/**
 * 308 Permanent Redirect: the path named something by a name it no longer has. The request is to be repeated,
 * same method and body, at `Location`; the body says what was renamed to what, for clients that do not follow.
 * (The open-source CLI follows it: Go's HTTP client repeats a 308 with the same method, body and credential
 * when the host is the same.)
 */
export class RenamedError extends AppError {
  readonly status = 308;
  readonly code = 'renamed';
  constructor(message: string, location: string) {
    super(message, null, { Location: location });
  }
}

/** What a module says of its renamable resource: where its name sits in paths, and how to resolve an old one. */
export interface RenamedResource {
  /** `Flow`, `Environment`: as its 404 messages begin (`Flow 'x' not found`). */
  kind: string;
  /** Path parameters that hold its name. */
  params: readonly string[];
  /** The current name of what was once called `oldName` in this org, or null. */
  currentName(orgId: string, oldName: string): Promise<string | null>;
}

/**
 * The request's URL with path parameter `param` replaced by `value` (its position taken from the route's
 * template), the query string kept.
 */
export function withPathParam(req: Request, param: string, value: string): string {
  const template = String((req.route as { path?: string } | undefined)?.path ?? '').split('/');
  const [path, query] = req.originalUrl.split(/\?(.*)/s);
  const segments = path.split('/');
  const at = template.indexOf(`:${param}`);
  if (at < 0 || at >= segments.length) return req.originalUrl;
  segments[at] = encodeURIComponent(value);
  return segments.join('/') + (query !== undefined ? `?${query}` : '');
}

/**
 * Turns the 404 of a renamed resource's old name into a 308 to the same request under its current name. Only a
 * 404 whose message names the value of one of the route's name parameters is looked at, so the cost is one
 * lookup on such 404s and nothing on any other request.
 */
export abstract class RenameRedirectInterceptor implements NestInterceptor {
  protected abstract readonly resource: RenamedResource;

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request & { org?: OrgContext }>();
    const param = this.resource.params.find((p) => typeof req.params?.[p] === 'string');
    if (!param || !req.org) return next.handle();
    const name = String(req.params[param]);
    const notFound = `${this.resource.kind} '${name}' not found`;
    return next.handle().pipe(
      catchError((error: unknown) => {
        if (!(error instanceof NotFoundError) || error.message !== notFound) return throwError(() => error);
        return from(this.resource.currentName(req.org!.id, name)).pipe(
          switchMap((current) =>
            throwError(() =>
              current === null || current === name
                ? error
                : new RenamedError(`${this.resource.kind} '${name}' was renamed to '${current}'`, withPathParam(req, param, current)),
            ),
          ),
        );
      }),
    );
  }
}
