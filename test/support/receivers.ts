import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  json: any;
  /** when it arrived (Date.now()) */
  at: number;
  /** How many requests the receiver was holding unanswered ('hang') when this one arrived. */
  heldOpen: number;
}

/** What the receiver does with a request: answer with a status, or never answer ('hang'). */
export type Reply = number | 'hang';

export interface HttpReceiver {
  url: (path?: string) => string;
  received: ReceivedRequest[];
  /** Requests held unanswered ('hang') whose client has not yet given up. */
  heldOpen: number;
  /** Decides each reply (default 200). */
  reply: (req: ReceivedRequest) => Reply;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records every request. */
export async function startHttpReceiver(): Promise<HttpReceiver> {
  const receiver: HttpReceiver = {
    url: () => '',
    received: [],
    heldOpen: 0,
    reply: () => 200,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = undefined;
      }
      const entry: ReceivedRequest = { path: req.url ?? '', headers: req.headers, raw, json, at: Date.now(), heldOpen: receiver.heldOpen };
      receiver.received.push(entry);
      const reply = receiver.reply(entry);
      if (reply === 'hang') {
        receiver.heldOpen++;
        res.once('close', () => receiver.heldOpen--);
        return;
      }
      res.writeHead(reply, { 'Content-Type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  receiver.url = (path = '/hook') => `http://127.0.0.1:${port}${path}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
}

/** A real SMTP server (smtp-server) on 127.0.0.1, no TLS and no authentication, that keeps every message. */
export async function startSmtpReceiver(): Promise<{ url: string; messages: ReceivedMail[]; close(): Promise<void> }> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1].replace(/\r?\n[ \t]/g, ' ') ?? '';
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
