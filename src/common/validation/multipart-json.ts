import { createParamDecorator, ExecutionContext, PipeTransform } from '@nestjs/common';
import type { Request } from 'express';
import { ValidationError } from '../errors/app-error';
import { mediaType } from '../http/media-type';
import { validateDto } from './strict-validation.pipe';

/** The form field that carries the JSON document of a multipart request, as the open-source CLI sends it. */
export const DATA_JSON = 'data_json';

/**
 * A pipe class that reads a multipart form by itself (rather than through `@MultipartJson`) says which form it
 * reads in a static property under this key, so the API description can show the form without knowing the pipe.
 */
export const FORM_READER = Symbol('veritrail:form-reader');
export interface FormReaderInfo {
  /** The file parts the form may carry. */
  fileParts: string[];
  /** Whether the route also takes the same data as a JSON body. */
  jsonAlso: boolean;
}

/**
 * A JSON document as it arrived: the values of its field in a multipart form (none when the field is missing,
 * several when it was sent more than once; each should be text), or a JSON body that stands for it (parsed).
 */
export type JsonPart = { texts: readonly unknown[] } | { document: unknown };

/**
 * Parses and validates a JSON document sent as a form field, with the same rules and error shape as a JSON
 * body: the field must be there once (`{data_json: 'is required'}`), be valid JSON, and be an object; then the
 * DTO's rules apply with errors keyed by the path inside the document (`git_commit_info.sha1`), exactly as the
 * global validation pipe reports a body. A JSON body is validated as the body itself.
 */
export function parseJsonPart<T extends object>(cls: new () => T, part: JsonPart, field = DATA_JSON): T {
  if ('document' in part) return validateDto(cls, part.document);
  const { texts } = part;
  if (texts.length === 0) throw new ValidationError({ [field]: 'is required' });
  const [text] = texts;
  if (texts.length > 1 || typeof text !== 'string') throw new ValidationError({ [field]: 'must be sent once, as a text field' });
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new ValidationError({ [field]: 'is not valid JSON' });
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new ValidationError({ [field]: 'must be a JSON object' });
  }
  return validateDto(cls, document);
}

export function isMultipart(req: Request): boolean {
  return mediaType(req) === 'multipart/form-data';
}

/**
 * The field of a request whose form was already read: a multipart reader that runs before the parameters
 * (an interceptor, multer) leaves text fields on `req.body`; any other request's JSON body is the document.
 */
export function jsonPartOf(req: Request, field = DATA_JSON): JsonPart {
  if (!isMultipart(req)) return { document: req.body };
  const value: unknown = (req.body as Record<string, unknown> | undefined)?.[field];
  if (value === undefined) return { texts: [] };
  return { texts: Array.isArray(value) ? value : [value] };
}

/** The pipe of `@MultipartJson(Dto)`: a JsonPart in, the validated DTO instance out. */
export class MultipartJsonPipe<T extends object> implements PipeTransform<JsonPart, T> {
  constructor(
    private readonly cls: new () => T,
    private readonly field = DATA_JSON,
  ) {}

  transform(part: JsonPart): T {
    return parseJsonPart(this.cls, part, this.field);
  }
}

const jsonPart = createParamDecorator((field: string, ctx: ExecutionContext): JsonPart => jsonPartOf(ctx.switchToHttp().getRequest<Request>(), field));

/**
 * `@MultipartJson(Dto) data: Dto`: the `data_json` field of a multipart request, parsed and validated like a
 * JSON body (see parseJsonPart). The form must have been read before the parameters, by an interceptor such as
 * the template form's; a route that streams its form in a pipe (attestations) calls parseJsonPart from that
 * pipe instead, once the field has arrived. Not multipart: the JSON body itself is the document.
 */
export function MultipartJson<T extends object>(cls: new () => T, field = DATA_JSON): ParameterDecorator {
  return jsonPart(field, new MultipartJsonPipe(cls, field));
}
