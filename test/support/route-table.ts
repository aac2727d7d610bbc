import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { NestExpressApplication } from '@nestjs/platform-express';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { API_PREFIX, UNPREFIXED_PATHS } from '../../src/app.factory';
import { listRouteTable, RouteEntry } from '../../src/common/auth/route-table';
import { pathParams } from '../../src/common/auth/route-scope';

export type { RouteEntry };

/** Every route of the running app with its scope, from Nest's metadata (the table start-up checks). */
export function listRoutes(app: NestExpressApplication): RouteEntry[] {
  return listRouteTable(app, { prefix: API_PREFIX, exclude: UNPREFIXED_PATHS });
}

/** What Express actually serves: one `METHOD /path` per route in its router. */
export function servedRoutes(app: NestExpressApplication): string[] {
  const express = app.getHttpAdapter().getInstance();
  const routes: string[] = [];
  for (const layer of express.router.stack as any[]) {
    if (!layer.route) continue;
    for (const method of Object.keys(layer.route.methods)) {
      routes.push(`${method === '_all' ? 'ALL' : method.toUpperCase()} ${layer.route.path}`);
    }
  }
  return routes;
}

export const describeRoute = (r: RouteEntry) => `${r.method} ${r.path}`;

/**
 * The route's path with each parameter replaced by `fill(name)`. A parameter the caller cannot fill fails the
 * test with a message saying where to add a filler, so that a new route cannot slip past a route-wide test.
 */
export function fillPath(route: RouteEntry, fill: (param: string) => string | undefined, where: string): string {
  let path = route.path;
  for (const param of pathParams(route.path)) {
    const value = fill(param.name);
    if (value === undefined) {
      throw new Error(`${describeRoute(route)}: no value for path parameter '${param.name}'; add a filler to ${where}`);
    }
    const token = (param.wildcard ? '*' : ':') + param.name;
    path = path.replace(new RegExp(token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '(?![\\w$])'), encodeURIComponent(value));
  }
  // Optional parts are all filled in, so their braces go.
  return path.replace(/[{}]/g, '');
}

/** supertest's method name for a route (`ALL` routes are called with GET). */
export function httpMethod(route: RouteEntry): 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options' {
  return (route.method === 'ALL' ? 'get' : route.method.toLowerCase()) as ReturnType<typeof httpMethod>;
}

export interface QueryField {
  name: string;
  required: boolean;
}

/**
 * The query string fields a route reads: each `@Query('name')`, and the properties of each `@Query() dto`
 * (from its class-validator decorators; a property without `@IsOptional()` is required).
 */
export function queryFields(route: RouteEntry): QueryField[] {
  const args: Record<string, { index: number; data?: unknown }> =
    Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, route.methodName) ?? {};
  const types: unknown[] = Reflect.getMetadata('design:paramtypes', route.controller.prototype, route.methodName) ?? [];
  const fields = new Map<string, QueryField>();
  for (const [key, arg] of Object.entries(args)) {
    if (Number(key.split(':')[0]) !== RouteParamtypes.QUERY) continue;
    if (typeof arg.data === 'string') {
      fields.set(arg.data, { name: arg.data, required: false });
      continue;
    }
    const dto = types[arg.index];
    if (typeof dto !== 'function' || dto === Object) {
      throw new Error(`${describeRoute(route)}: @Query() without a DTO class; its fields cannot be listed`);
    }
    const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
    for (const m of metadata) {
      const field = fields.get(m.propertyName) ?? { name: m.propertyName, required: true };
      if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) field.required = false;
      fields.set(m.propertyName, field);
    }
  }
  return [...fields.values()];
}
