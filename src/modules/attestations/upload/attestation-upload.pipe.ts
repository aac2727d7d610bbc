import { createParamDecorator, ExecutionContext, Inject, Injectable, PipeTransform } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../../common/config/app-config';
import { JsonLogger } from '../../../common/logging/json-logger';
import { UnsupportedMediaTypeError, ValidationError } from '../../../common/errors/app-error';
import { MAX_FILE_BYTES, MAX_FORM_FIELD_BYTES, wireLimitBytes } from '../../../common/http/body-limits';
import { mediaType } from '../../../common/http/media-type';
import { DATA_JSON, FORM_READER, FormReaderInfo, isMultipart, parseJsonPart } from '../../../common/validation/multipart-json';
import { AttestationFormLimits, readAttestationForm } from './attestation-form';
import { CleanupFailed, StagedEvidence } from './staged-evidence';

/** 10 MB (10,485,760 bytes), as every file part (body-limits.ts). */
export const MAX_ATTACHMENT_BYTES = MAX_FILE_BYTES;
/** `data_json` is a JSON document; 1 MB is far more than any real one. */
export const MAX_DATA_JSON_BYTES = MAX_FORM_FIELD_BYTES;
export const ATTACHMENT_PARTS = ['attachment_file', 'attachment_file.0'];

export interface AttestationUpload<TData extends object = object> {
  /** `data_json`, parsed and validated against the route's DTO class. */
  data: TData;
  evidence: StagedEvidence | null;
}

interface UploadSource {
  req: Request;
  res: Response;
  /** The DTO class `data_json` is validated against (the route knows its attestation type's class). */
  dataClass: new () => object;
}

/**
 * Parses a multipart attestation request, as the pipe of the `@UploadedAttestation(Dto)` parameter: after the
 * guards (so 401/403/404-org come first), `data_json` plus at most one attachment, streamed through sha256 with
 * the 10 MB cap (never buffered whole in memory) by `readAttestationForm`; then `data_json` is parsed and
 * validated against the DTO exactly as `@MultipartJson(Dto)` does it (parseJsonPart), so the handler gets
 * validated data. On any error the request body is drained, staged bytes are discarded, and the handler is not
 * called. The staged attachment is removed when the response is done, whether it was stored or not, and also
 * when the response went out before the form was read (another parameter of the route was rejected).
 * (A pipe rather than an interceptor: an interceptor costs an rxjs pipeline and an async-context binding on
 * every request of this hot route.)
 */
@Injectable()
export class AttestationUploadPipe implements PipeTransform<UploadSource, Promise<AttestationUpload>> {
  /** For the API description: `data_json` and the attachment, never a JSON body. */
  static readonly [FORM_READER]: FormReaderInfo = { fileParts: ['attachment_file'], jsonAlso: false };
  private readonly limits: AttestationFormLimits;
  // The upload folder is made when an attachment spills to disk (AttachmentSink), not here: a request that keeps
  // its attachment in memory touches no file, and a folder that could not be made is tried again next time.
  private readonly cleanupFailed: CleanupFailed;

  constructor(@Inject(APP_CONFIG) config: AppConfig, logger: JsonLogger) {
    this.cleanupFailed = (error, tempPath) =>
      logger.warn('a staged upload could not be removed', { path: tempPath, error: (error as Error)?.message ?? String(error) });
    this.limits = {
      fileBytes: MAX_ATTACHMENT_BYTES,
      fieldBytes: MAX_DATA_JSON_BYTES,
      fileParts: ATTACHMENT_PARTS,
      parts: 10,
      fields: 8,
      // The edge (body-gate.ts) answers 413 at this size already; this is the reader's own guard.
      bodyBytes: wireLimitBytes(config.bodyLimitBytes, true),
    };
  }

  async transform({ req, res, dataClass }: UploadSource): Promise<AttestationUpload> {
    if (!isMultipart(req)) {
      const type = mediaType(req);
      throw new UnsupportedMediaTypeError(`Content-Type '${type || '(none)'}' is not supported here; send multipart/form-data`);
    }
    const { fields, file } = await readAttestationForm(req, this.limits, this.cleanupFailed);
    if (file) {
      // A response already sent (a path parameter was rejected while the body streamed in) will not close again.
      // dispose() never rejects (a failed removal is logged), so nothing here can become an unhandled rejection.
      if (res.writableFinished || res.destroyed) void file.dispose();
      else res.once('close', () => void file.dispose());
    }
    const errors: Record<string, string> = {};
    for (const name of fields.keys()) {
      if (name !== DATA_JSON) errors[name] = `unknown form field: send ${DATA_JSON} and at most one attachment_file`;
    }
    const dataJson = fields.get(DATA_JSON) ?? [];
    if (dataJson.length > 1) errors[DATA_JSON] = 'must be sent once, as a text field';
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return { data: parseJsonPart(dataClass, { texts: dataJson }), evidence: file };
  }
}

const uploadSource = createParamDecorator(
  (dataClass: new () => object, ctx: ExecutionContext): UploadSource => ({
    req: ctx.switchToHttp().getRequest<Request>(),
    res: ctx.switchToHttp().getResponse<Response>(),
    dataClass,
  }),
);

/**
 * The multipart body of an attestation request, `data_json` validated against `dataClass`:
 * `@UploadedAttestation(GenericAttestationRequestDto) upload: AttestationUpload<GenericAttestationRequestDto>`.
 */
export const UploadedAttestation = <T extends object>(dataClass: new () => T): ParameterDecorator => uploadSource(dataClass, AttestationUploadPipe);
