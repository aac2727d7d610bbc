import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * The requests a server is answering, so that a stopping process can stop accepting connections and still
 * finish what it has started: `stop()` closes the listening socket (new connections are refused) and the idle
 * keep-alive ones, and answers still to be sent say `Connection: close`; `drained()` resolves when the last
 * request in flight has been answered (or its client went away).
 */
export class RequestTracker {
  private readonly open = new Set<ServerResponse>();
  private readonly waiters: Array<() => void> = [];
  private stopping = false;

  constructor(private readonly server: Server) {
    server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
      this.open.add(res);
      if (this.stopping) res.setHeader('Connection', 'close');
      res.once('close', () => {
        this.open.delete(res);
        if (!this.open.size) this.waiters.splice(0).forEach((resolve) => resolve());
      });
    });
  }

  get inFlight(): number {
    return this.open.size;
  }

  stop(): void {
    this.stopping = true;
    this.server.close();
    this.server.closeIdleConnections();
    for (const res of this.open) if (!res.headersSent) res.setHeader('Connection', 'close');
  }

  drained(): Promise<void> {
    if (!this.open.size) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
