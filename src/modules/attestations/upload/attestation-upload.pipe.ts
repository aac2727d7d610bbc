import { createParamDecorator, ExecutionContext, Inject, Injectable, PipeTransform } from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { APP_CONFIG, AppConfig } from '../../../common/config/app-config';
import {
  AppError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../../common/errors/app-error';
import { ensureUploadDir, HashingStorage, UploadTooLargeError } from './hashing-storage';
import { StagedEvidence } from './staged-evidence';

/** 10 MB, as decisions.md counts it. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** `data_json` is a JSON document; 1 MB is far more than any real one. */
export const MAX_DATA_JSON_BYTES = 1024 * 1024;
export const ATTACHMENT_PARTS = ['attachment_file', 'attachment_file.0'];

export interface AttestationUpload {
  /** The raw `data_json` text (undefined when the part is missing). */
  dataJson: string | undefined;
  evidence: StagedEvidence | null;
}

class UnknownFilePartError extends Error {
  constructor(readonly field: string) {
    super(`unknown file part '${field}'`);
  }
}

function toAppError(error: any): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof UploadTooLargeError || error?.code === 'LIMIT_FILE_SIZE') {
    return new PayloadTooLargeError(`The attachment is larger than 10 MB (${MAX_ATTACHMENT_BYTES} bytes); nothing was stored`);
  }
  if (error instanceof UnknownFilePartError) {
    return new ValidationError({ [error.field]: `unknown file part: send the attachment as ${ATTACHMENT_PARTS.join(' or ')}` });
  }
  switch (error?.code) {
    case 'LIMIT_FILE_COUNT':
      return new ValidationError({ attachment_file: 'at most one attachment file part is allowed' });
    case 'LIMIT_FIELD_VALUE':
      return new PayloadTooLargeError(`The form field '${error.field}' is larger than ${MAX_DATA_JSON_BYTES} bytes`);
    case 'LIMIT_PART_COUNT':
    case 'LIMIT_FIELD_COUNT':
      return new ValidationError({ body: 'too many form parts: send data_json and at most one attachment_file' });
    default:
      return new ValidationError({ body: `invalid multipart request: ${error?.message ?? 'unreadable form'}` });
  }
}

/**
 * Parses a multipart attestation request, as the pipe of the `@UploadedAttestation()` parameter: after the guards
 * (so 401/403/404-org come first), `data_json` plus at most one attachment, streamed through sha256 with the
 * 10 MB cap (never buffered whole in memory). On any error the request body is drained, staged bytes are
 * discarded, and the handler is not called. The staged attachment is removed when the response is done,
 * whether it was stored or not. (A pipe rather than an interceptor: an interceptor costs an rxjs pipeline and
 * an async-context binding on every request of this hot route.)
 */
@Injectable()
export class AttestationUploadPipe implements PipeTransform<{ req: Request; res: Response }, Promise<AttestationUpload>> {
  private readonly parse: RequestHandler = multer({
    storage: new HashingStorage(MAX_ATTACHMENT_BYTES),
    limits: { fileSize: MAX_ATTACHMENT_BYTES, files: 1, fields: 8, parts: 10, fieldSize: MAX_DATA_JSON_BYTES },
    fileFilter: (_req, file, accept) => {
      if (ATTACHMENT_PARTS.includes(file.fieldname)) accept(null, true);
      else accept(new UnknownFilePartError(file.fieldname));
    },
  }).any();
  private dirReady: Promise<void> | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async transform({ req, res }: { req: Request; res: Response }): Promise<AttestationUpload> {
    const type = (req.headers['content-type'] || '').split(';')[0].trim().toLowerCase();
    if (type !== 'multipart/form-data') {
      throw new UnsupportedMediaTypeError(`Content-Type '${type || '(none)'}' is not supported here; send multipart/form-data`);
    }
    this.dirReady ??= ensureUploadDir();
    await this.dirReady;
    // After an error multer reads the rest of the body (so the client can read the 413/400); past the body
    // limit the connection is cut instead, so an endless upload cannot keep the server reading.
    let received = 0;
    const guard = (chunk: Buffer) => {
      received += chunk.length;
      if (received > this.config.bodyLimitBytes + MAX_ATTACHMENT_BYTES) req.destroy();
    };
    await new Promise<void>((resolve, reject) => {
      req.on('data', guard);
      this.parse(req, res, (error?: unknown) => (error ? reject(toAppError(error)) : resolve()));
    }).finally(() => req.off('data', guard));

    const files = ((req as any).files ?? []) as Array<Express.Multer.File & { staged?: StagedEvidence }>;
    const evidence = files[0]?.staged ?? null;
    if (evidence) res.once('close', () => void evidence.dispose());
    const body = (req.body ?? {}) as Record<string, unknown>;
    const errors: Record<string, string> = {};
    for (const key of Object.keys(body)) {
      if (key !== 'data_json') errors[key] = 'unknown form field: send data_json and at most one attachment_file';
    }
    if (body.data_json !== undefined && typeof body.data_json !== 'string') errors.data_json = 'must be sent once, as a text field';
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return { dataJson: body.data_json as string | undefined, evidence };
  }
}

/** The parsed multipart body of an attestation request: `@UploadedAttestation() upload: AttestationUpload`. */
export const UploadedAttestation = () =>
  createParamDecorator((_: unknown, ctx: ExecutionContext) => ({
    req: ctx.switchToHttp().getRequest<Request>(),
    res: ctx.switchToHttp().getResponse<Response>(),
  }))(undefined, AttestationUploadPipe);
