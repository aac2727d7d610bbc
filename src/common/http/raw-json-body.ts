import type { IncomingMessage } from 'node:http';

/** Where the JSON parser leaves the exact bytes of a body sent to a webhook route (they are signed). */
export const RAW_JSON_BODY = Symbol('rawJsonBody');
/** Routes whose JSON bodies are kept as bytes too: only inbound webhooks, which check an HMAC over them. */
export const RAW_BODY_PREFIX = '/api/v2/webhooks/';

/** `verify` of express.json: keeps the bytes for webhook routes only, so other requests pay nothing. */
export function keepWebhookBody(req: IncomingMessage, _res: unknown, buf: Buffer): void {
  if (req.url?.startsWith(RAW_BODY_PREFIX)) (req as unknown as Record<symbol, Buffer>)[RAW_JSON_BODY] = buf;
}
