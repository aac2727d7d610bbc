import { CallHandler, createParamDecorator, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, RequestHandler } from 'express';
import multer from 'multer';
import { Observable } from 'rxjs';
import { MAX_FORM_FIELD_BYTES } from '../../common/http/body-limits';
import { AppError, PayloadTooLargeError, ValidationError } from '../../common/errors/app-error';
import { DATA_JSON, isMultipart } from '../../common/validation/multipart-json';

const SCHEMA_PART = 'type_schema';
/** A JSON Schema is a small document: the same bound as `data_json`. */
export const MAX_TYPE_SCHEMA_BYTES = MAX_FORM_FIELD_BYTES;

const FORM = Symbol('type-schema-form');

function toAppError(error: any): AppError {
  if (error instanceof AppError) return error;
  switch (error?.code) {
    case 'LIMIT_FILE_SIZE':
      return new PayloadTooLargeError(`The type schema is larger than ${MAX_TYPE_SCHEMA_BYTES} bytes`);
    case 'LIMIT_FIELD_VALUE':
      return new PayloadTooLargeError(`The form field '${error.field}' is larger than ${MAX_FORM_FIELD_BYTES} bytes`);
    case 'LIMIT_UNEXPECTED_FILE':
      return new ValidationError({ [error.field ?? 'body']: `unknown file part: only ${SCHEMA_PART} is accepted` });
    case 'LIMIT_FILE_COUNT':
      return new ValidationError({ [SCHEMA_PART]: 'at most one schema file is allowed' });
    default:
      return new ValidationError({ body: `invalid multipart request: ${error?.message ?? 'unreadable form'}` });
  }
}

/**
 * `POST /custom-attestation-types/{org}`: multipart `data_json` + optional `type_schema` file (what the CLI's
 * `create attestation-type` sends). A JSON body is read as `data_json` itself (no schema then). Runs after the
 * guards; leaves `data_json` on `req.body` for `@MultipartJson(Dto)` and the schema text for `@TypeSchemaSource()`.
 */
@Injectable()
export class TypeSchemaFormInterceptor implements NestInterceptor {
  /** The file parts this form reader takes (read by the API description). */
  static readonly formFileParts = [SCHEMA_PART];

  private readonly parse: RequestHandler = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_TYPE_SCHEMA_BYTES, files: 1, fields: 4, parts: 6, fieldSize: MAX_FORM_FIELD_BYTES },
  }).single(SCHEMA_PART);

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse();
    if (!isMultipart(req)) {
      (req as any)[FORM] = null;
      return next.handle();
    }
    await new Promise<void>((resolve, reject) => {
      this.parse(req, res, (error?: unknown) => (error ? reject(toAppError(error)) : resolve()));
    });
    const body = (req.body ?? {}) as Record<string, unknown>;
    const errors: Record<string, string> = {};
    for (const key of Object.keys(body)) {
      if (key !== DATA_JSON) errors[key] = `unknown form field: send ${DATA_JSON} and optionally ${SCHEMA_PART}`;
    }
    if (body[DATA_JSON] === undefined) errors[DATA_JSON] = 'is required';
    else if (typeof body[DATA_JSON] !== 'string') errors[DATA_JSON] = 'must be sent once, as a text field';
    const file = (req as any).file as Express.Multer.File | undefined;
    let source: string | null = null;
    if (file) {
      source = file.buffer.toString('utf8');
      if (source.includes('\uFFFD')) errors[SCHEMA_PART] = 'must be UTF-8 text (JSON)';
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    (req as any)[FORM] = source;
    return next.handle();
  }
}

/** The `type_schema` part as text, or null (use with TypeSchemaFormInterceptor). */
export const TypeSchemaSource = createParamDecorator((_: unknown, ctx: ExecutionContext): string | null => ctx.switchToHttp().getRequest()[FORM] ?? null);
