import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpServerSettings } from '../config/app-config';
import { JsonLogger } from '../logging/json-logger';
import { declaresTooLarge } from './body-gate';
import { lingerAfterResponse, lingeringClose } from './lingering-close';

/** Node checks request and headers timeouts on a timer; a timeout fires at most this share of itself late. */
const CHECKS_PER_TIMEOUT = 4;

/** What Node's HTTP parser refuses, as the status Node itself would answer and the message we say with it. */
export function clientErrorAnswer(error: NodeJS.ErrnoException): { status: number; message: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'The request line and headers are larger than the server accepts (16 KB)' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'The chunk extensions of the request body are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request did not arrive in time (headers or body too slow)' };
    default:
      return { status: 400, message: `Malformed HTTP request${error.code?.startsWith('HPE_') ? ` (${error.code})` : ''}` };
  }
}

/** A complete HTTP/1.1 answer with the error body, written straight to the socket (there is no response object). */
export function rawErrorResponse(status: number, message: string): string {
  const body = JSON.stringify({ message, errors: null });
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * The Node HTTP server's own settings: the configured timeouts, and answers to what its parser refuses before
 * the application sees a request (oversized headers or URL, a malformed request line or chunked body, a request
 * or headers timeout). Node answers those with an empty body and then destroys the socket, which can lose even
 * that; here they get the status Node would use, the error body, `Connection: close` and a gentle close.
 */
export function configureHttpServer(server: Server, settings: HttpServerSettings, bodyLimitBytes: number, logger: JsonLogger): void {
  server.requestTimeout = settings.requestTimeoutMs;
  server.headersTimeout = settings.headersTimeoutMs;
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  // Node answers an HTTP/1.1 request without a Host header itself, with an empty 400 and no request id; the
  // pipeline refuses it instead (`installHttpPipeline`), with the error body every other 400 has.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  // Read when the server starts listening: checked often enough that a timeout fires at most a quarter late.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(
    25,
    Math.min(30_000, Math.floor(Math.min(settings.headersTimeoutMs, settings.requestTimeoutMs) / CHECKS_PER_TIMEOUT)),
  );

  // A response that closes its connection while the client is still sending a body no route reads (a body on a
  // GET, say: Node then answers with `Connection: close`) would otherwise end with a reset that cuts the answer
  // short; every connection closes gently instead.
  server.on('connection', (socket: Socket) => lingerAfterResponse(socket));

  // `Expect: 100-continue` (curl sends it for large bodies): invite the body only if it may be read; otherwise
  // the body gate answers 413 before the client has sent a byte of it.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (!declaresTooLarge(req, bodyLimitBytes)) res.writeContinue();
    server.emit('request', req, res);
  });

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    // A response already under way cannot be followed by another one; a socket gone (reset, EPIPE) has no reader.
    if (!socket.writable || socket.destroyed || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, message } = clientErrorAnswer(error);
    logger.info('request refused by the HTTP parser', { status, code: error.code });
    socket.write(rawErrorResponse(status, message));
    lingeringClose(socket);
  });
}
