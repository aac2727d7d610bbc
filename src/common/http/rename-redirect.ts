import type { Request } from 'express';
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
 * (every route one of these can answer 308) read this table. `resource_id` (the tag routes) names a resource of
 * the kind in another parameter (`resource_type`): the 404's message, which names the kind, says which it is.
 */
export const RENAMABLE_NAMES = {
  Flow: { params: ['flow', 'flow_name', 'resource_id'], query: ['flow', 'flow_name'], lookedUpFirst: ['flow', 'flow_name'], rule: 'flow' },
  // The gate's `environment_name` is 404 when unknown, so it is resolved after the fact: assert pays nothing.
  Environment: { params: ['env', 'env_name', 'resource_id'], query: ['environment_name'], lookedUpFirst: [], rule: 'environment' },
} as const satisfies Record<string, { params: readonly string[]; query: readonly string[]; lookedUpFirst: readonly string[]; rule: NameKind }>;

/** What a module registers of its renamable resource (where its name sits in requests is in RENAMABLE_NAMES). */
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
 * The renamable resources of the app (flows, environments): each module registers its own at start-up. Old names
 * are answered with 308 to the same request under the current name, without any global interceptor (Nest wraps
 * every request of every route in observables once one exists, which cost about 8% of the CPU of recording an
 * attestation):
 * - `redirectFor`, asked by `AllExceptionsFilter` when an error is about to become the answer: a 404 whose
 *   message names the value of one of the route's name parameters, or of a query field that names one
 *   (`environment_name`), becomes the redirect. One lookup on such 404s, nothing on any other request.
 * - `redirectBefore`, asked by `RequestGuards` once the org is known: a query field that filters (`flow`,
 *   `flow_name`: an unknown name gives an empty list rather than a 404) is looked up before the handler runs,
 *   one indexed probe, only on requests that carry such a field.
 */
export class RenameRedirects {
  private readonly resources: RenamedResource[] = [];

  register(resource: RenamedResource): void {
    this.resources.push(resource);
  }

  /** The redirect that answers instead of `error`, or null (then also when the lookup finds no rename). */
  redirectFor(error: unknown, req: Request & { org?: OrgContext }): Promise<RenamedError | null> | null {
    if (!(error instanceof NotFoundError) || !req.org) return null;
    const orgId = req.org.id;
    for (const resource of this.resources) {
      const names = RENAMABLE_NAMES[resource.kind];
      const param = names.params.find((p) => typeof req.params?.[p] === 'string' && error.message === `${resource.kind} '${String(req.params[p])}' not found`);
      const field =
        param === undefined ? names.query.find((f) => typeof req.query?.[f] === 'string' && error.message === `${resource.kind} '${String(req.query[f])}' not found`) : undefined;
      if (param === undefined && field === undefined) continue;
      const name = param !== undefined ? String(req.params[param]) : String(req.query[field!]);
      return resource
        .currentName(orgId, name)
        .then((current) =>
          current === null || current === name
            ? null
            : renamed(resource.kind, name, current, param !== undefined ? withPathParam(req, param, current) : withQueryField(req, field!, current)),
        );
    }
    return null;
  }

  /** The redirect for an old name in a filtering query field, looked up before the handler; null when none applies. */
  redirectBefore(req: Request & { org?: OrgContext }): Promise<RenamedError | null> | null {
    if (!req.org || !req.query) return null;
    let pending: Promise<RenamedError | null> | null = null;
    for (const resource of this.resources) {
      const names = RENAMABLE_NAMES[resource.kind];
      for (const field of names.lookedUpFirst as readonly string[]) {
        const name = req.query[field];
        // A value that cannot be a name is left to validation (no lookup before it).
        if (typeof name !== 'string' || nameProblem(names.rule, name) !== null) continue;
        const orgId = req.org.id;
        const probe = (): Promise<RenamedError | null> =>
          resource.renamedAway(orgId, name).then((current) => (current === null || current === name ? null : renamed(resource.kind, name, current, withQueryField(req, field, current))));
        pending = pending ? pending.then((hit) => hit ?? probe()) : probe();
      }
    }
    return pending;
  }
}

function renamed(kind: string, name: string, current: string, location: string): RenamedError {
  return new RenamedError(`${kind} '${name}' was renamed to '${current}'`, location);
}
