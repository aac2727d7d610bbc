import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { AppConfig } from '../../common/config/app-config';
import { InjectConfig } from '../../common/config/config.decorators';
import { JsonLogger } from '../../common/logging/json-logger';

/** What the listener serves: the admission route and nothing else. */
// `/api/v2/admission/{org}/{env}`, optionally `/{mode}` and `/{mode}/exempt/{namespace}...` (the settings a webhook
// configuration can hold, since Kubernetes refuses a query string in it); a query string is allowed.
const ADMISSION_PATH = /^\/api\/v2\/admission(?:\/[^/?#]+){2}(?:\/[^/?#]+(?:\/exempt(?:\/[^/?#]+)+)?)?\/?(?:\?|$)/;

function refuse(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ message, errors: null });
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** The certificate's common name and DNS names. */
function clientNames(socket: TLSSocket): string[] {
  const cert = socket.getPeerCertificate();
  const names = cert?.subject?.CN ? [String(cert.subject.CN)] : [];
  for (const entry of (cert?.subjectaltname ?? '').split(',')) {
    const [kind, value] = entry.trim().split(/:(.*)/s);
    if (kind === 'DNS' && value) names.push(value);
  }
  return names;
}

/**
 * The admission webhook over mutual TLS (`ADMISSION_TLS_*`, common/config/admission-tls-config.ts): a second,
 * HTTPS listener whose TLS handshake fails for a client without a certificate from the configured CA, and which
 * hands only `/api/v2/admission/{org}/{env}` to the application (the same pipeline, guards and API key as the
 * main port). Without the variables nothing is started.
 */
@Injectable()
export class AdmissionTlsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: Server;

  constructor(
    private readonly adapter: HttpAdapterHost,
    @InjectConfig() private readonly config: AppConfig,
    private readonly logger: JsonLogger,
  ) {}

  /** The port it listens on, once started (tests start it on port 0). */
  get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    const tls = this.config.admissionTls;
    if (!tls) return;
    const app = this.adapter.httpAdapter.getInstance() as (req: IncomingMessage, res: ServerResponse) => void;
    const allowed = new Set(tls.clientNames);
    const server = createServer(
      { cert: tls.cert, key: tls.key, ca: tls.clientCa, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.2' },
      (req, res) => {
        if (allowed.size && !clientNames(req.socket as TLSSocket).some((n) => allowed.has(n))) {
          return refuse(res, 403, 'The client certificate is not one of ADMISSION_TLS_CLIENT_NAMES');
        }
        if (!ADMISSION_PATH.test(req.url ?? '')) return refuse(res, 404, 'This port serves only the admission webhook (/api/v2/admission/{org}/{env})');
        app(req, res);
      },
    );
    server.requestTimeout = this.config.http.requestTimeoutMs;
    server.headersTimeout = this.config.http.headersTimeoutMs;
    server.keepAliveTimeout = this.config.http.keepAliveTimeoutMs;
    server.on('tlsClientError', (error: Error) => this.logger.info('admission TLS handshake refused', { error: error.message }));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(tls.port, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.logger.info('admission webhook listening with mutual TLS', { port: this.port, client_names: tls.clientNames });
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
