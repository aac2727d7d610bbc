import type { NextFunction, Request, Response } from 'express';
import type { Socket } from 'node:net';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors/app-error';
import { wireLimitBytes } from './body-limits';
import { lingerAfterResponse, lingeringClose } from './lingering-close';
import { mediaType } from './media-type';

/** Content-Encodings a JSON body may come in (decoded by the JSON parser, the decoded size bounded too). */
export const JSON_CONTENT_ENCODINGS = ['identity', 'gzip', 'deflate', 'br'] as const;

/** Whether the Content-Length a request declares is past the wire limit (known before any of the body is read). */
export function declaresTooLarge(req: Pick<Request, 'headers'>, bodyLimitBytes: number): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > wireLimitBytes(bodyLimitBytes, mediaType(req) === 'multipart/form-data');
}

export function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** The request's Content-Encoding, or the reason it is refused (415). */
export function contentEncodingProblem(req: Request): string | null {
  const raw = req.headers['content-encoding'];
  if (raw === undefined) return null;
  const encoding = raw.trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return null;
  if (mediaType(req) === 'multipart/form-data') {
    return `Content-Encoding '${raw}' is not supported for multipart bodies; send them uncompressed`;
  }
  if (!(JSON_CONTENT_ENCODINGS as readonly string[]).includes(encoding)) {
    return `Content-Encoding '${raw}' is not supported; send ${JSON_CONTENT_ENCODINGS.join(', ')} (one coding)`;
  }
  return null;
}

type Send = (error: unknown, req: Request, res: Response) => void;

/**
 * The first thing a request with a body meets, before authentication and before anything reads the body:
 * - a Content-Encoding the service does not decode is 415;
 * - a body larger than the wire limit (BODY_LIMIT_MB, plus one attachment for multipart) is 413, answered at
 *   once when Content-Length declares it, else as soon as the bytes received pass it. The connection is then
 *   closed gently (lingeringClose), so a client still sending can read the answer, and nothing past the limit
 *   reaches a reader: the body seen by the application ends there.
 * Every route shares this, so no route reads or decompresses more than the limit, authenticated or not.
 */
export function bodyGate(bodyLimitBytes: number, send: Send) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    const encodingProblem = contentEncodingProblem(req);
    if (encodingProblem) return next(new UnsupportedMediaTypeError(encodingProblem));

    const limit = wireLimitBytes(bodyLimitBytes, mediaType(req) === 'multipart/form-data');
    const tooLarge = () => {
      const socket = req.socket as Socket;
      // Answered already (a 401 before the body was read, say) and Node is reading the rest to reuse the
      // connection: past the limit it is not worth reusing; close it once the answer is out.
      if (res.headersSent) {
        if (res.writableFinished) lingeringClose(socket);
        else res.once('finish', () => lingeringClose(socket));
        return;
      }
      res.setHeader('Connection', 'close');
      lingerAfterResponse(socket);
      send(new PayloadTooLargeError(`The request body is larger than the limit of ${limit} bytes`), req, res);
    };

    if (declaresTooLarge(req, bodyLimitBytes)) {
      capStream(req, 0, () => undefined, true);
      return tooLarge();
    }
    // With a Content-Length (checked just above), Node's parser hands over exactly that many bytes: nothing to
    // count. A chunked body says nothing in advance, so its bytes are counted as they come.
    if (req.headers['content-length'] === undefined) capStream(req, limit, tooLarge, false);
    next();
  };
}

/**
 * Counts the body bytes Node's HTTP parser hands to the request stream; past `limit`, calls `over` once, fails
 * the stream for its readers (an error, never an early end that could read as a complete body) and drops the
 * rest (which the lingering close discards). The stream is failed without destroying the socket, which still
 * has to carry the answer.
 */
function capStream(req: Request, limit: number, over: () => void, closed: boolean): void {
  const push = req.push.bind(req);
  let received = 0;
  req.push = (chunk: any, encoding?: BufferEncoding) => {
    if (closed) return true;
    if (chunk === null) return push(null);
    received += chunk.length;
    if (received <= limit) return push(chunk, encoding);
    closed = true;
    over();
    req.on('error', () => undefined);
    req._destroy = (error, callback) => callback(error);
    req.destroy(new PayloadTooLargeError(`The request body is larger than the limit of ${limit} bytes`));
    return true;
  };
}
