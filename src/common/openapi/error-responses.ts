import type { ResponseObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { RouteEntry } from '../auth/route-table';
import { API_ERRORS } from './response-schema';
import { ORG_PARAM } from '../auth/route-scope';
import type { RouteInputs } from './route-inputs';
import { SCHEMA_REF } from './request-schemas';

export const ERROR_SCHEMA = 'Error';
export const UNEXPECTED_ERROR_SCHEMA = 'UnexpectedError';

/** The one error body of every route (common/errors), and its 500 form with the id that is in the log. */
export function errorSchemas(): Record<string, SchemaObject> {
  const errors: SchemaObject = {
    type: ['object', 'null'],
    description: 'Field errors keyed by the full path of the field (`git_commit_info.sha1`), or null.',
    additionalProperties: { type: 'string' },
  } as unknown as SchemaObject;
  return {
    [ERROR_SCHEMA]: {
      type: 'object',
      required: ['message', 'errors'],
      properties: { message: { type: 'string' }, errors },
    },
    [UNEXPECTED_ERROR_SCHEMA]: {
      type: 'object',
      required: ['message', 'errors', 'error_id'],
      properties: { message: { type: 'string' }, errors: { type: 'null' } as SchemaObject, error_id: { type: 'string', description: 'Also in the log line of the error.' } },
    },
  };
}

const body = (schema: string) => ({ 'application/json': { schema: { $ref: SCHEMA_REF + schema } } });
const error = (description: string): ResponseObject => ({ description, content: body(ERROR_SCHEMA) });

/**
 * The error statuses a route can answer, from what it declares: its auth scope (401, 403, 404 for the org), a
 * beta feature (403), path parameters naming resources (404), inputs that are validated (400) and bodies (413,
 * 415); and for every route, 500 with an error id and 503 with `Retry-After` while the database is unavailable
 * or a resource has run out (a full disk).
 */
export function errorResponses(route: RouteEntry, inputs: RouteInputs): Record<string, ResponseObject> {
  const { scope, requiredBeta } = route.policy;
  const responses: Record<string, ResponseObject> = {};
  const hasBody = Boolean(inputs.jsonBody || inputs.form);
  const validated = hasBody || inputs.queryClasses.length > 0 || route.params.some((p) => p !== ORG_PARAM);
  if (validated) responses['400'] = error('Invalid input: `errors` maps each field path to what is wrong with it.');
  if (scope !== 'public') {
    responses['401'] = {
      ...error('No credential, or one that is not valid here.'),
      headers: { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'The scheme to use (`Bearer`).' } },
    };
  }
  if (scope === 'org-scoped') {
    responses['403'] = error(
      'The caller is not a member of the organization, or its role is too low' +
        (requiredBeta ? `, or the organization does not have the beta feature \`${requiredBeta}\`.` : '.'),
    );
  }
  const otherParams = route.params.filter((p) => p !== ORG_PARAM);
  if (scope === 'org-scoped' || route.params.length > 0) {
    responses['404'] = error(
      (route.params.includes(ORG_PARAM) ? 'The organization' : 'A resource') +
        (otherParams.length ? ` or what the path names (${otherParams.join(', ')})` : '') +
        ' was not found.',
    );
  }
  if (hasBody) {
    responses['413'] = error('The body (or a part of the form) is too large.');
    responses['415'] = error('The body is neither JSON nor a multipart form.');
  }
  const declared: Record<number, string> | undefined = Reflect.getMetadata(API_ERRORS, route.controller.prototype[route.methodName]);
  for (const [status, description] of Object.entries(declared ?? {})) responses[status] = error(description);
  responses['500'] = { description: 'Unexpected error; the id is logged with it.', content: body(UNEXPECTED_ERROR_SCHEMA) };
  responses['503'] = {
    ...error('The database is unavailable, or the server is out of storage, memory or connections (the message says which); retry after the given seconds.'),
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before retrying.' } },
  };
  return responses;
}
