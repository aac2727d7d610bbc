import { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { catchError, from, Observable, switchMap, throwError } from 'rxjs';
import { AppError, NotFoundError } from '../errors/app-error';
import type { OrgContext } from '../auth/principal';
import { nameProblem, NameKind } from '../validation/names';

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

/**
 * Where the names of renamable resources sit in requests: path parameters, and query fields that name one
 * (filters such as `?flow=`, the gate's `?environment_name=`). Both the redirect and the API description
 * (every route one of these can answer 308) read this table.
 */
export const RENAMABLE_NAMES = {
  Flow: { params: ['flow', 'flow_name'], query: ['flow', 'flow_name'], lookedUpFirst: ['flow', 'flow_name'], rule: 'flow' },
  // The gate's `environment_name` is 404 when unknown, so it is resolved after the fact: assert pays nothing.
  Environment: { params: ['env', 'env_name'], query: ['environment_name'], lookedUpFirst: [], rule: 'environment' },
} as const satisfies Record<string, { params: readonly string[]; query: readonly string[]; lookedUpFirst: readonly string[]; rule: NameKind }>;

/** What a module says of its renamable resource: where its name sits in requests, and how to resolve an old one. */
export interface RenamedResource {
  /** `Flow`, `Environment`: as its 404 messages begin (`Flow 'x' not found`). */
  kind: keyof typeof RENAMABLE_NAMES;
  /** The current name of what was once called `oldName` in this org, or null. */
  currentName(orgId: string, oldName: string): Promise<string | null>;
  /** The same, but only when nothing is called `oldName` now (a name in a query field is resolved before the handler). */
  renamedAway(orgId: string, oldName: string): Promise<string | null>;
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

/** The request's URL with query field `field` set to `value`, the path and every other field kept in order. */
export function withQueryField(req: Request, field: string, value: string): string {
  const [path, query] = req.originalUrl.split(/\?(.*)/s);
  const search = new URLSearchParams(query ?? '');
  search.set(field, value);
  return `${path}?${search.toString()}`;
}

/**
 * Answers an old name of a renamed resource with 308 to the same request under its current name.
 * - In a path: the 404 whose message names the value of one of the route's name parameters is turned into the
 *   redirect, so the cost is one lookup on such 404s and nothing on any other request.
 * - In a query field: the same after the fact when the handler's 404 names it (`environment_name`); a field
 *   that filters (`flow`, `flow_name`: an unknown name gives an empty list rather than a 404) is looked up
 *   before the handler runs (one indexed probe, only on requests that carry such a field).
 */
export abstract class RenameRedirectInterceptor implements NestInterceptor {
  protected abstract readonly resource: RenamedResource;

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request & { org?: OrgContext }>();
    if (!req.org) return next.handle();
    const orgId = req.org.id;
    const { kind } = this.resource;
    const names = RENAMABLE_NAMES[kind];
    const param = names.params.find((p) => typeof req.params?.[p] === 'string');
    // A value that cannot be a name is left to validation (no lookup before it).
    const fields = names.query.filter((f) => typeof req.query?.[f] === 'string' && nameProblem(names.rule, req.query[f]) === null);
    if (!param && !fields.length) return next.handle();
    const renamed = (name: string, current: string, location: string) => new RenamedError(`${kind} '${name}' was renamed to '${current}'`, location);

    // After the fact: the handler's 404 names the old name, in the path or in a query field.
    const handle = (): Observable<unknown> =>
      next.handle().pipe(
        catchError((error: unknown) => {
          if (!(error instanceof NotFoundError)) return throwError(() => error);
          const inPath = param !== undefined && error.message === `${kind} '${String(req.params[param])}' not found`;
          const field = inPath ? undefined : fields.find((f) => error.message === `${kind} '${String(req.query[f])}' not found`);
          if (!inPath && field === undefined) return throwError(() => error);
          const name = inPath ? String(req.params[param!]) : String(req.query[field!]);
          return from(this.resource.currentName(orgId, name)).pipe(
            switchMap((current) =>
              throwError(() =>
                current === null || current === name
                  ? error
                  : renamed(name, current, inPath ? withPathParam(req, param!, current) : withQueryField(req, field!, current)),
              ),
            ),
          );
        }),
      );
    // Before: filters answer an unknown name with an empty list, not a 404.
    const first = fields.filter((f) => (names.lookedUpFirst as readonly string[]).includes(f));
    if (!first.length) return handle();
    return from(this.firstRenamedField(orgId, req, first)).pipe(
      switchMap((hit) => (hit ? throwError(() => renamed(hit.name, hit.current, withQueryField(req, hit.field, hit.current))) : handle())),
    );
  }

  private async firstRenamedField(orgId: string, req: Request, fields: readonly string[]): Promise<{ field: string; name: string; current: string } | null> {
    for (const field of fields) {
      const name = String(req.query[field]);
      const current = await this.resource.renamedAway(orgId, name);
      if (current !== null && current !== name) return { field, name, current };
    }
    return null;
  }
}
