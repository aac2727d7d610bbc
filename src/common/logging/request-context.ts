import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written on behalf of one request carries. */
export interface RequestContext {
  requestId: string;
}

/**
 * The request a piece of code runs for. The HTTP pipeline enters it first thing, so everything the request
 * causes (guards, handlers, the work they start in the background, Nest's own lines) runs inside it and the
 * logger can stamp `request_id` without anyone passing it along.
 */
export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
