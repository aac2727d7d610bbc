import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import * as http from 'node:http';
import * as https from 'node:https';
import { TargetGuard, TargetRefusedError } from './target-guard';

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** Refused by the target policy or not configured: retrying will not help. */
  permanent?: boolean;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs a body to a target URL with a time limit for the whole exchange, through the SSRF guard. 2xx is
 * success; anything else (redirects are not followed) is a failure with the status as its error.
 */
@Injectable()
export class HttpPoster implements OnApplicationShutdown {
  // Keep-alive: a receiver that takes many notifications is not made to do a TLS handshake for each.
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 30_000 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 64, timeout: 30_000 }),
  };
  private readonly inFlight = new Set<http.ClientRequest>();

  constructor(private readonly guard: TargetGuard) {}

  post(raw: string, body: Buffer, headers: Record<string, string>, timeoutMs: number): Promise<SendResult> {
    const url = new URL(raw);
    const refused = this.guard.literalProblem(url);
    if (refused) return Promise.resolve({ ok: false, statusCode: null, error: `refused: ${refused}`, permanent: true });
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.inFlight.delete(req);
        resolve(result);
      };
      const req = transport.request(
        url,
        {
          method: 'POST',
          agent: this.agents[url.protocol as 'http:' | 'https:'],
          lookup: this.guard.lookup,
          headers: { ...headers, 'Content-Length': String(body.length) },
        },
        (res) => {
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_RESPONSE_BYTES) res.destroy();
          });
          const done = () => {
            const status = res.statusCode ?? 0;
            const ok = status >= 200 && status < 300;
            finish({ ok, statusCode: status, error: ok ? null : `HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}` });
          };
          res.on('end', done);
          res.on('close', done);
          res.on('error', done);
        },
      );
      this.inFlight.add(req);
      const timer = setTimeout(() => req.destroy(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      req.on('error', (error) =>
        finish({
          ok: false,
          statusCode: null,
          error: error instanceof TargetRefusedError ? `refused: ${error.message}` : error.message,
          permanent: error instanceof TargetRefusedError,
        }),
      );
      req.end(body);
    });
  }

  /** Aborts what is in flight (the process is stopping: those deliveries are retried by another attempt). */
  abortAll(): void {
    for (const req of this.inFlight) req.destroy(new Error('the service is stopping'));
  }

  onApplicationShutdown(): void {
    this.abortAll();
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}
