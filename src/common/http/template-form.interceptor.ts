import { CallHandler, createParamDecorator, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, RequestHandler } from 'express';
import multer from 'multer';
import { Observable } from 'rxjs';
import { AppError, PayloadTooLargeError, ValidationError } from '../errors/app-error';
import { DATA_JSON, isMultipart } from '../validation/multipart-json';
import { MAX_FILE_BYTES, MAX_FORM_FIELD_BYTES } from './body-limits';

/** The reference's limit for a template file. */
export const MAX_TEMPLATE_BYTES = MAX_FILE_BYTES;
const MAX_DATA_JSON_BYTES = MAX_FORM_FIELD_BYTES;
const TEMPLATE_PART = 'template_file';

/** The optional YAML template as text (`data_json` is a parameter of its own: `@MultipartJson(Dto)`). */
export interface TemplateForm {
  templateSource: string | null;
}

const FORM = Symbol('template-form');

function toAppError(error: any): AppError {
  if (error instanceof AppError) return error;
  switch (error?.code) {
    case 'LIMIT_FILE_SIZE':
      return new PayloadTooLargeError(`The template file is larger than ${MAX_TEMPLATE_BYTES} bytes`);
    case 'LIMIT_FIELD_VALUE':
      return new PayloadTooLargeError(`The form field '${error.field}' is larger than ${MAX_DATA_JSON_BYTES} bytes`);
    case 'LIMIT_UNEXPECTED_FILE':
      return new ValidationError({ [error.field ?? 'body']: `unknown file part: only ${TEMPLATE_PART} is accepted` });
    case 'LIMIT_FILE_COUNT':
      return new ValidationError({ [TEMPLATE_PART]: 'at most one template file is allowed' });
    default:
      return new ValidationError({ body: `invalid multipart request: ${error?.message ?? 'unreadable form'}` });
  }
}

/**
 * Create flow with template and begin trail: multipart `data_json` + optional `template_file` (what the
 * open-source CLI sends). A JSON body is accepted too and read as `data_json` itself, for curl users.
 * Runs after the guards, so 401/403/404-org come before anything about the body. It reads the form and checks
 * its shape (which parts, each once, the template as text), reporting every problem of the shape at once; it
 * leaves the text fields on `req.body`, where `@MultipartJson(Dto)` parses and validates `data_json`.
 */
@Injectable()
export class TemplateFormInterceptor implements NestInterceptor {
  private readonly parse: RequestHandler = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_TEMPLATE_BYTES, files: 1, fields: 4, parts: 6, fieldSize: MAX_DATA_JSON_BYTES },
  }).single(TEMPLATE_PART);

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse();
    if (!isMultipart(req)) {
      (req as any)[FORM] = { templateSource: null } satisfies TemplateForm;
      return next.handle();
    }
    await new Promise<void>((resolve, reject) => {
      this.parse(req, res, (error?: unknown) => (error ? reject(toAppError(error)) : resolve()));
    });
    const body = (req.body ?? {}) as Record<string, unknown>;
    const errors: Record<string, string> = {};
    for (const key of Object.keys(body)) {
      if (key !== DATA_JSON) errors[key] = `unknown form field: send ${DATA_JSON} and optionally ${TEMPLATE_PART}`;
    }
    if (body[DATA_JSON] === undefined) errors[DATA_JSON] = 'is required';
    else if (typeof body[DATA_JSON] !== 'string') errors[DATA_JSON] = 'must be sent once, as a text field';
    const file = (req as any).file as Express.Multer.File | undefined;
    let templateSource: string | null = null;
    if (file) {
      templateSource = file.buffer.toString('utf8');
      if (templateSource.includes('\uFFFD')) errors[TEMPLATE_PART] = 'must be UTF-8 text (YAML)';
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    (req as any)[FORM] = { templateSource } satisfies TemplateForm;
    return next.handle();
  }
}

/** The template part of the form (use with TemplateFormInterceptor). */
export const TemplateFormBody = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): TemplateForm => ctx.switchToHttp().getRequest()[FORM],
);
