import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { AppConfig } from '../../../common/config/app-config';
import { InjectConfig } from '../../../common/config/config.decorators';
import { SendResult } from './http-poster';

/**
 * Sends notification e-mails through the SMTP server of SMTP_URL (one pooled transport per process), each within
 * the attempt's time limit as a whole. The transport's own timeouts bound each wait for a byte, not the exchange
 * (a server that answers a line at a time, or a pool whose connections are all busy, can hold a message far
 * longer than its lease), so a message not sent in time is aborted: taken out of the pool's queue, or its
 * connection closed, while the pool's other messages go on. The attempt fails with a time-out and is tried again
 * under the same delivery id, like a webhook that timed out.
 */
@Injectable()
export class EmailSender implements OnApplicationShutdown {
  private transport: Transporter | null = null;

  constructor(@InjectConfig() private readonly config: AppConfig) {}

  async send(to: string[], message: { subject: string; text: string }, headers: Record<string, string>, timeoutMs: number): Promise<SendResult> {
    const url = this.config.actions.smtpUrl;
    if (!url) return { ok: false, statusCode: null, error: 'e-mail is not configured on this server (SMTP_URL)', permanent: true };
    const transport = (this.transport ??= createTransport({
      url,
      pool: true,
      maxConnections: 4,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    } as Parameters<typeof createTransport>[0]));
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    try {
      await transport.sendMail({ from: this.config.actions.smtpFrom, to, subject: message.subject, text: message.text, headers, signal: abort.signal });
      return { ok: true, statusCode: null, error: null };
    } catch (error) {
      return { ok: false, statusCode: null, error: abort.signal.aborted ? (abort.signal.reason as Error).message : (error as Error).message };
    } finally {
      clearTimeout(timer);
    }
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
