import type { Socket } from 'node:net';

/** How long a closing connection keeps reading (and discarding) what the client still sends. */
export const LINGER_MS = 2_000;

const noop = () => undefined;

/**
 * Closes a connection after an answer without losing the answer. Closing a socket while the client is still
 * sending makes the kernel reset the connection, and a reset may discard the answer before the client has read
 * it (the "connection reset, no answer" of a far oversized upload). So: send FIN after the answer, keep reading
 * and discarding for at most LINGER_MS, and destroy the socket when the client closes its side or that time is up.
 */
export function lingeringClose(socket: Socket): void {
  if (socket.destroyed) return;
  // The HTTP parser must not see the rest: it would parse it as more requests (or fail on it again).
  socket.removeAllListeners('data');
  socket.on('data', noop);
  socket.on('error', noop);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  if (socket.writable) socket.end();
  socket.resume();
}

/**
 * Makes Node's HTTP server close this connection with lingeringClose once the current response is finished
 * (the server calls `destroySoon` for a response sent with `Connection: close`).
 */
export function lingerAfterResponse(socket: Socket): void {
  (socket as Socket & { destroySoon: () => void }).destroySoon = () => lingeringClose(socket);
}
