import { CallHandler, createParamDecorator, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, RequestHandler } from 'express';
import multer from 'multer';
import { Observable } from 'rxjs';
import { AppError, PayloadTooLargeError, ValidationError } from '../../common/errors/app-error';
import { MAX_FILE_BYTES, MAX_FORM_FIELD_BYTES } from '../../common/http/body-limits';
import { isMultipart } from '../../common/validation/multipart-json';

export const POLICY_PAYLOAD = 'payload';
export const POLICY_FILE = 'policy_file';
const FORM = Symbol('policy-form');

function toAppError(error: any): AppError {
  if (error instanceof AppError) return error;
  switch (error?.code) {
    case 'LIMIT_FILE_SIZE':
      return new PayloadTooLargeError(`The policy file is larger than ${MAX_FILE_BYTES} bytes`);
    case 'LIMIT_FIELD_VALUE':
      return new PayloadTooLargeError(`The form field '${error.field}' is larger than ${MAX_FORM_FIELD_BYTES} bytes`);
    case 'LIMIT_UNEXPECTED_FILE':
      return new ValidationError({ [error.field ?? 'body']: `unknown file part: only ${POLICY_FILE} is accepted` });
    case 'LIMIT_FILE_COUNT':
      return new ValidationError({ [POLICY_FILE]: 'at most one policy file is allowed' });
    default:
      return new ValidationError({ body: `invalid multipart request: ${error?.message ?? 'unreadable form'}` });
  }
}

/**
 * `PUT /policies/{org}`: the CLI's multipart form, a JSON `payload` field and the YAML as the `policy_file`
 * part (required). Runs after the guards; reports every problem of the form's shape at once and leaves
 * `payload` on `req.body` for `@MultipartJson(Dto, 'payload')`.
 */
@Injectable()
export class PolicyFormInterceptor implements NestInterceptor {
  /** What the API description lists as the form's parts (src/openapi/route-inputs.ts). */
  static readonly FILE_PARTS = [POLICY_FILE];

  private readonly parse: RequestHandler = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 4, parts: 6, fieldSize: MAX_FORM_FIELD_BYTES },
  }).single(POLICY_FILE);

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse();
    if (!isMultipart(req)) throw new ValidationError({ [POLICY_FILE]: `is required: send a multipart form with ${POLICY_PAYLOAD} and ${POLICY_FILE}` });
    await new Promise<void>((resolve, reject) => {
      this.parse(req, res, (error?: unknown) => (error ? reject(toAppError(error)) : resolve()));
    });
    const body = (req.body ?? {}) as Record<string, unknown>;
    const errors: Record<string, string> = {};
    for (const key of Object.keys(body)) if (key !== POLICY_PAYLOAD) errors[key] = `unknown form field: send ${POLICY_PAYLOAD} and ${POLICY_FILE}`;
    const file = (req as any).file as Express.Multer.File | undefined;
    let source = '';
    if (!file) errors[POLICY_FILE] = 'is required';
    else {
      source = file.buffer.toString('utf8');
      if (source.includes('\uFFFD')) errors[POLICY_FILE] = 'must be UTF-8 text (YAML)';
      else if (source.includes('\u0000')) errors[POLICY_FILE] = 'must not contain NUL characters';
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    (req as any)[FORM] = source;
    return next.handle();
  }
}

/** The policy file's text (use with PolicyFormInterceptor). */
export const PolicyFile = createParamDecorator((_: unknown, ctx: ExecutionContext): string => ctx.switchToHttp().getRequest()[FORM]);
