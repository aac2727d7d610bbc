import type { Request } from 'express';
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
 * The renamable resources of the app (flows, environments): each module registers its own at start-up. When an
 * error is about to become the answer (`AllExceptionsFilter`), the 404 of a renamed resource's old name becomes
 * a 308 to the same request under its current name. Only a 404 whose message names the value of one of the
 * route's name parameters is looked at, so the cost is one lookup on such 404s and nothing at all on any other
 * request. (This was a pair of global interceptors: Nest wraps every request that has any interceptor in
 * observables and async-resource bindings, which cost about 8% of the CPU of recording an attestation.)
 */
export class RenameRedirects {
  private readonly resources: RenamedResource[] = [];

  register(resource: RenamedResource): void {
    this.resources.push(resource);
  }

  /** The redirect that answers instead of `error`, or null (then also when the lookup finds no rename). */
  redirectFor(error: unknown, req: Request & { org?: OrgContext }): Promise<RenamedError | null> | null {
    if (!(error instanceof NotFoundError) || !req.org || !req.params) return null;
    for (const resource of this.resources) {
      const param = resource.params.find((p) => typeof req.params[p] === 'string');
      if (!param) continue;
      const name = String(req.params[param]);
      if (error.message !== `${resource.kind} '${name}' not found`) continue;
      return resource
        .currentName(req.org.id, name)
        .then((current) =>
          current === null || current === name
            ? null
            : new RenamedError(`${resource.kind} '${name}' was renamed to '${current}'`, withPathParam(req, param, current)),
        );
    }
    return null;
  }
}
