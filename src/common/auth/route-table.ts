import { INestApplicationContext, RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { declaredPaths, joinPath, policyOf, RoutePolicy } from './route-policy';
import { pathParams, RouteNotClassifiedError } from './route-scope';

export interface RoutePrefix {
  /** The global prefix (`api/v2`). */
  prefix: string;
  /** Paths served outside it, as given to `setGlobalPrefix` (`health`). */
  exclude: string[];
}

/** One HTTP route of the app, with what its decorators say about who may call it. */
export interface RouteEntry {
  method: string;
  /** The full path in Express syntax (`/api/v2/flows/:org/:flow`). */
  path: string;
  params: string[];
  controller: Type<unknown>;
  methodName: string;
  /** `FlowsController.get`, for messages. */
  name: string;
  policy: RoutePolicy;
}

/**
 * Every route of every controller the app has, from Nest's own metadata (what its router registers). The
 * route-table e2e test checks this list against the routes Express actually serves.
 */
export function listRouteTable(app: INestApplicationContext, prefix: RoutePrefix): RouteEntry[] {
  const reflector = new Reflector();
  const scanner = new MetadataScanner();
  const controllers = new Set<Type<unknown>>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) if (wrapper.metatype) controllers.add(wrapper.metatype as Type<unknown>);
  }
  const excluded = new Set(prefix.exclude.map((p) => joinPath(p)));
  const routes: RouteEntry[] = [];
  for (const controller of controllers) {
    for (const methodName of scanner.getAllMethodNames(controller.prototype)) {
      const handler = controller.prototype[methodName];
      if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) ?? RequestMethod.GET];
      const policy = policyOf(reflector, controller, handler);
      for (const path of declaredPaths(controller, handler)) {
        routes.push({
          method,
          path: excluded.has(path) ? path : joinPath(prefix.prefix, path),
          params: pathParams(path).map((p) => p.name),
          controller,
          methodName,
          name: `${controller.name}.${methodName}`,
          policy,
        });
      }
    }
  }
  return routes;
}

/** Start-up refuses an app with any route that has no scope, in one line naming every such route. */
export function assertEveryRouteClassified(routes: RouteEntry[]): void {
  const refused = routes.filter((r) => r.policy.refusal);
  if (!refused.length) return;
  throw new RouteNotClassifiedError(
    refused.map((r) => `route ${r.method} ${r.path} (${r.name}) is refused: ${r.policy.refusal}`).join('; '),
  );
}
