import { INestApplication } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type {
  OperationObject,
  ParameterObject,
  PathItemObject,
  RequestBodyObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { RouteEntry } from '../auth/route-table';
import { API_SUCCESS, ApiSuccessMetadata } from './response-schema';
import { pathParams } from '../auth/route-scope';
import { ERROR_SCHEMA, errorResponses, errorSchemas } from './error-responses';
import { requestSchemas, SCHEMA_REF } from './request-schemas';
import { RENAMABLE_NAMES } from '../http/rename-redirect';
import { routeInputs, RouteInputs } from './route-inputs';

/** The security schemes a route may name. */
export const SECURITY = { apiKey: 'apiKey', basic: 'apiKeyBasic', operator: 'operatorToken' } as const;

/** `/api/v2/flows/:org/:flow` -> `/api/v2/flows/{org}/{flow}`. */
export function openApiPath(expressPath: string): string {
  let path = expressPath;
  for (const param of pathParams(expressPath)) {
    path = path.replace((param.wildcard ? '*' : ':') + param.name, `{${param.name}}`);
  }
  return path.replace(/\{(?![\w$]+\})/g, '').replace(/(?<!\{[\w$]+)\}/g, '');
}

function successStatus(route: RouteEntry): number {
  const handler = route.controller.prototype[route.methodName];
  return Reflect.getMetadata(HTTP_CODE_METADATA, handler) ?? (route.method === 'POST' ? 201 : 200);
}

const ref = (cls: Function) => ({ $ref: SCHEMA_REF + cls.name });

function parameters(route: RouteEntry, inputs: RouteInputs, schemas: Record<string, SchemaObject>): ParameterObject[] {
  const list: ParameterObject[] = pathParams(route.path).map((p) => ({
    name: p.name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    ...(p.wildcard ? { description: 'May contain `/` (sent raw or as `%2F`).' } : {}),
  }));
  for (const cls of inputs.queryClasses) {
    const schema = schemas[cls.name] ?? {};
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      list.push({ name, in: 'query', required: (schema.required ?? []).includes(name), schema: property as SchemaObject });
    }
  }
  for (const name of inputs.queryNames) list.push({ name, in: 'query', required: false, schema: { type: 'string' } });
  return list;
}

function requestBody(inputs: RouteInputs): RequestBodyObject | undefined {
  if (inputs.jsonBody) return { required: true, content: { 'application/json': { schema: ref(inputs.jsonBody) } } };
  if (!inputs.form) return undefined;
  const { dataClass, field, fileParts, jsonAlso } = inputs.form;
  const properties: Record<string, SchemaObject> = {
    [field]: {
      type: 'string',
      description: 'The JSON document of the request, as text.',
      contentMediaType: 'application/json',
      contentSchema: ref(dataClass),
    } as SchemaObject,
  };
  for (const part of fileParts) {
    properties[part] = { type: 'string', description: 'A file part (optional).', contentMediaType: 'application/octet-stream' } as SchemaObject;
  }
  const content: RequestBodyObject['content'] = {
    'multipart/form-data': {
      schema: { type: 'object', required: [field], properties },
      encoding: { [field]: { contentType: 'application/json' } },
    },
  };
  if (jsonAlso) content['application/json'] = { schema: ref(dataClass) };
  return { required: true, content };
}

function security(route: RouteEntry): OperationObject['security'] {
  switch (route.policy.scope) {
    case 'public':
      return [];
    case 'operator':
      return [{ [SECURITY.operator]: [] }];
    default:
      return route.policy.basicAuthAllowed ? [{ [SECURITY.apiKey]: [] }, { [SECURITY.basic]: [] }] : [{ [SECURITY.apiKey]: [] }];
  }
}

function describeAccess(route: RouteEntry): string {
  const { scope, requiredRole, requiredBeta } = route.policy;
  if (scope === 'public') return 'Public: no credential.';
  if (scope === 'operator') return 'Operator only: `Bearer ADMIN_TOKEN`.';
  if (scope === 'not-org-scoped') return 'Any valid API key.';
  const role = requiredRole ?? (route.method === 'GET' || route.method === 'HEAD' ? 'reader' : 'member');
  return `A member of the organization with role \`${role}\` or above.` + (requiredBeta ? ` Needs the beta feature \`${requiredBeta}\`.` : '');
}

/**
 * The 308 a route answers when a path parameter or query field of it names a flow or environment by a name it
 * was renamed away from (common/http/rename-redirect.ts), or undefined when none of its inputs names one.
 */
function renamedResponse(params: ParameterObject[]): ResponseObject | undefined {
  const naming = params.filter((p) =>
    Object.values(RENAMABLE_NAMES).some((n) => (p.in === 'path' ? (n.params as readonly string[]) : p.in === 'query' ? (n.query as readonly string[]) : []).includes(p.name)),
  );
  if (!naming.length) return undefined;
  return {
    description:
      `${naming.map((p) => `\`${p.name}\``).join(', ')} names a flow or environment by an old name (it was renamed): repeat the request, ` +
      'same method and body, at `Location`, the same URL with the current name. The body names the old and the new name.',
    headers: { Location: { schema: { type: 'string' }, description: 'The same request under the current name (path and query kept).' } },
    content: { 'application/json': { schema: { $ref: SCHEMA_REF + ERROR_SCHEMA } } },
  };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The OpenAPI 3.1 description of the app's routes. @nestjs/swagger scans the controllers (and reads the
 * response descriptions modules put on their handlers with `@ApiResponse`); then each route of the route table
 * gets what the scan cannot see here: its path parameters, its query fields and bodies from the class-validator
 * rules its pipes apply, and the error statuses its auth scope and inputs imply.
 */
export function buildOpenApiDocument(app: INestApplication, routes: RouteEntry[], skip: (route: RouteEntry) => boolean): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Veritrail API')
    .setVersion('2.0')
    .setDescription(
      'Software delivery compliance: flows, trails, artifacts, attestations, environments, controls and evaluations. ' +
        'Every error answers `{"message": string, "errors": {field.path: message} | null}`.',
    )
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key (`vtk_...`).' }, SECURITY.apiKey)
    .addBasicAuth({ type: 'http', scheme: 'basic', description: 'An API key as user name or password (routes that say so).' }, SECURITY.basic)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The operator token (`ADMIN_TOKEN`).' }, SECURITY.operator)
    .build();
  const scanned = SwaggerModule.createDocument(app, config);

  const byOperationId = new Map<string, OperationObject>();
  for (const item of Object.values(scanned.paths) as PathItemObject[]) {
    for (const method of METHODS) if (item[method]?.operationId) byOperationId.set(item[method]!.operationId!, item[method]!);
  }
  const inputs = new Map(routes.map((route) => [route, routeInputs(route)]));
  const validated = [...inputs.values()].flatMap((i) => [i.jsonBody, i.form?.dataClass, ...i.queryClasses]).filter((c): c is Function => !!c);
  const schemas: Record<string, SchemaObject> = {
    ...(scanned.components?.schemas as Record<string, SchemaObject>),
    ...requestSchemas(validated),
    ...errorSchemas(),
  };

  const paths: Record<string, PathItemObject> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    if (skip(route)) continue;
    const method = route.method.toLowerCase() as (typeof METHODS)[number];
    const baseId = `${route.controller.name}_${route.methodName}`;
    const found = byOperationId.get(baseId);
    let operationId = baseId;
    for (let n = 2; operationIds.has(operationId); n++) operationId = `${baseId}_${n}`;
    operationIds.add(operationId);

    const status = successStatus(route);
    const responses: Record<string, ResponseObject> = {};
    for (const [code, response] of Object.entries((found?.responses ?? {}) as Record<string, ResponseObject>)) {
      // The scan adds an empty default success response; a module's own description replaces it.
      if (response.content || response.description) responses[code] = response;
    }
    const success: ApiSuccessMetadata | undefined = Reflect.getMetadata(API_SUCCESS, route.controller.prototype[route.methodName]);
    if (success) {
      for (const code of success.status ?? [status]) {
        responses[code] = {
          description: success.description ?? 'Success',
          content: { [success.contentType ?? 'application/json']: { schema: success.schema as SchemaObject } },
        };
      }
    }
    if (!Object.keys(responses).some((code) => code.startsWith('2'))) responses[status] = { description: 'Success' };
    Object.assign(responses, errorResponses(route, inputs.get(route)!));

    const params = parameters(route, inputs.get(route)!, schemas);
    const renamed = renamedResponse(params);
    if (renamed) responses['308'] = renamed;

    const body = requestBody(inputs.get(route)!);
    const operation: OperationObject = {
      operationId,
      tags: [route.path.replace(/^\/api\/v2\//, '').split('/')[0] || 'service'],
      summary: found?.summary,
      description: [found?.description, describeAccess(route)].filter(Boolean).join('\n\n'),
      security: security(route),
      parameters: params,
      ...(body ? { requestBody: body } : {}),
      responses,
    };
    if (!operation.summary) delete operation.summary;
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [method === ('all' as string) ? 'get' : method]: operation };
  }
  return { ...scanned, paths, components: { ...scanned.components, schemas } };
}

