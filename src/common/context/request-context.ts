import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Per-request values that code deep in a call (jobs enqueued, outbox events, logs) needs without threading
 * them through every signature. Tenancy is NOT taken from here: commands carry the org id explicitly.
 */
export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const requestContext = {
  run<T>(ctx: RequestContext, fn: () => T): T {
    return storage.run(ctx, fn);
  },
  current(): RequestContext | undefined {
    return storage.getStore();
  },
};
