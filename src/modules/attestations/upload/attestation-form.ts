import type { Request } from 'express';
import { isUtf8 } from 'node:buffer';
import { boundaryOf, MultipartError, MultipartParser, MultipartPart } from '../../../../libs/multipart/src';
import { AppError, BadRequestError, PayloadTooLargeError, ValidationError } from '../../../common/errors/app-error';
import { insufficientResources } from '../../../common/errors/resource-errors';
import { isValidMediaType } from '../../../common/http/media-type';
import { isStorableText, UNSTORABLE_TEXT } from '../../../common/validation/storable-text';
import { AttachmentSink, UploadTooLargeError } from './attachment-sink';
import { CleanupFailed, StagedEvidence } from './staged-evidence';

export interface AttestationFormLimits {
  /** Bytes of the one file part. */
  fileBytes: number;
  /** Bytes of one text field. */
  fieldBytes: number;
  /** File part names that are accepted (any other file part is a 400). */
  fileParts: readonly string[];
  /** Parts of any kind, and text fields. */
  parts: number;
  fields: number;
  /** Bytes of the whole body past which the connection is cut instead of drained. */
  bodyBytes: number;
}

export interface AttestationForm {
  /** Text fields by name, each value in arrival order. */
  fields: Map<string, string[]>;
  /** The attachment, received whole, hashed and size-checked. */
  file: StagedEvidence | null;
}

const TOO_MANY_PARTS = 'too many form parts: send data_json and at most one attachment_file';

/**
 * Reads a `multipart/form-data` attestation request: text fields whole (each up to `fieldBytes`), the one
 * file part streamed into an AttachmentSink (hashed, capped, spilled to disk past the memory threshold, with
 * the request paused while the disk catches up). Any error answers after the rest of the body has been read,
 * so the client can read the 4xx, and leaves nothing staged; past `bodyBytes` the connection is cut instead,
 * so an endless upload cannot keep the server reading.
 */
export function readAttestationForm(req: Request, limits: AttestationFormLimits, cleanupFailed?: CleanupFailed): Promise<AttestationForm> {
  const boundary = boundaryOf(req.headers['content-type']);
  return new Promise<AttestationForm>((resolve, reject) => {
    const fields = new Map<string, string[]>();
    let sink: AttachmentSink | null = null;
    let files = 0;
    let parts = 0;
    let field: { name: string; chunks: Buffer[]; size: number } | null = null;
    let finishing: Promise<StagedEvidence> | null = null;
    let failure: Error | null = null;
    let received = 0;
    let settled = false;

    const fail = (error: unknown) => {
      if (failure) return;
      failure = toRequestError(error, limits);
      void sink?.abort();
      if (req.isPaused()) req.resume();
    };

    const parser = boundary
      ? new MultipartParser(boundary, {
          partBegin(part: MultipartPart) {
            if (++parts > limits.parts) throw new ValidationError({ body: TOO_MANY_PARTS });
            // The file name and type are stored with the attachment: the same text rule as every other field.
            for (const [what, text] of [['name', part.name], ['file name', part.filename], ['content type', part.contentType]] as const) {
              if (text && !isStorableText(text)) {
                throw new ValidationError({ [isStorableText(part.name) ? part.name : 'body']: `the part's ${what} ${UNSTORABLE_TEXT}` });
              }
            }
            if (part.filename === null) {
              if (fields.size >= limits.fields && !fields.has(part.name)) throw new ValidationError({ body: TOO_MANY_PARTS });
              field = { name: part.name, chunks: [], size: 0 };
              return;
            }
            if (!limits.fileParts.includes(part.name)) {
              throw new ValidationError({ [part.name]: `unknown file part: send the attachment as ${limits.fileParts.join(' or ')}` });
            }
            // Sent back as the download's Content-Type header: a value no header may carry would fail every download.
            if (part.contentType !== null && !isValidMediaType(part.contentType)) {
              throw new ValidationError({ [part.name]: `the part's content type is not a valid media type (type/subtype; name=value)` });
            }
            if (++files > 1) throw new ValidationError({ attachment_file: 'at most one attachment file part is allowed' });
            sink = new AttachmentSink(limits.fileBytes, part.filename, part.contentType ?? '', cleanupFailed);
          },
          partData(data: Buffer) {
            if (field) {
              field.size += data.length;
              if (field.size > limits.fieldBytes) {
                throw new PayloadTooLargeError(`The form field '${field.name}' is larger than ${limits.fieldBytes} bytes`);
              }
              field.chunks.push(data);
            } else sink!.write(data);
          },
          partEnd() {
            if (field) {
              const { name, chunks, size } = field;
              const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
              // Refused rather than stored with U+FFFD in place of what was sent.
              if (!isUtf8(bytes)) throw new ValidationError({ [name]: 'must be valid UTF-8 text' });
              const value = bytes.toString('utf8');
              const values = fields.get(name);
              if (values) values.push(value);
              else fields.set(name, [value]);
              field = null;
            } else {
              finishing = sink!.finish();
              // Observed here so that a failure after this point (a later part) never leaves it unhandled.
              finishing.catch(() => undefined);
            }
          },
        })
      : null;
    if (!parser) fail(new MultipartError('Multipart: Boundary not found'));

    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.bodyBytes) {
        fail(new PayloadTooLargeError(`The request body is larger than ${limits.bodyBytes} bytes`));
        req.destroy();
        return;
      }
      if (failure) return;
      try {
        parser!.write(chunk);
      } catch (error) {
        return fail(error);
      }
      if (sink?.needsDrain && !finishing) {
        req.pause();
        sink.onDrain(() => req.resume());
      }
    };
    const onEnd = () => {
      if (!failure) {
        try {
          parser!.end();
        } catch (error) {
          fail(error);
        }
      }
      cleanup();
      if (failure) return settle(failure);
      if (!finishing) return settle(null, { fields, file: null });
      finishing.then(
        (file) => settle(null, { fields, file }),
        (error) => settle(toRequestError(error, limits)),
      );
    };
    const onGone = () => {
      if (req.readableEnded) return;
      fail(new BadRequestError('The request was aborted before its body was complete'));
      cleanup();
      settle(failure);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onGone);
    };
    const settle = (error: Error | null, form?: AttestationForm) => {
      if (settled) {
        void form?.file?.dispose();
        return;
      }
      settled = true;
      if (error) reject(error);
      else resolve(form!);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onGone);
  });
}

/**
 * Only what the client sent is a 4xx: the parser's MultipartError and the limits. A temp file that could not be
 * written is the server's trouble, never a 400 (a client does not retry a 400, and the message would show the
 * temp path): no room or no file descriptors is a 503 (insufficientResources), anything else (EACCES, EROFS,
 * EIO, the folder gone in a race) is passed on as it is, a 500 with an error id and nothing of the path.
 */
function toRequestError(error: unknown, limits: AttestationFormLimits): Error {
  if (error instanceof AppError) return error;
  if (error instanceof UploadTooLargeError) {
    return new PayloadTooLargeError(`The attachment is larger than ${limits.fileBytes / (1024 * 1024)} MB (${limits.fileBytes} bytes); nothing was stored`);
  }
  if (error instanceof MultipartError) {
    if (error.part) return new ValidationError({ [error.part]: error.message.replace(/^Multipart: /, '') });
    return new ValidationError({ body: `invalid multipart request: ${error.message}` });
  }
  const resources = insufficientResources(error);
  if (resources) return resources;
  return error instanceof Error ? error : new Error(String(error));
}
