import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { AppConfig } from '../../../common/config/app-config';
import { InjectConfig } from '../../../common/config/config.decorators';
import { SendResult } from './http-poster';

/** Sends notification e-mails through the SMTP server of SMTP_URL (one pooled transport per process). */
@Injectable()
export class EmailSender implements OnApplicationShutdown {
  private transport: Transporter | null = null;

  constructor(@InjectConfig() private readonly config: AppConfig) {}

  async send(to: string[], message: { subject: string; text: string }, headers: Record<string, string>, timeoutMs: number): Promise<SendResult> {
    const url = this.config.actions.smtpUrl;
    if (!url) return { ok: false, statusCode: null, error: 'e-mail is not configured on this server (SMTP_URL)', permanent: true };
    this.transport ??= createTransport({
      url,
      pool: true,
      maxConnections: 4,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    } as Parameters<typeof createTransport>[0]);
    try {
      await this.transport.sendMail({ from: this.config.actions.smtpFrom, to, subject: message.subject, text: message.text, headers });
      return { ok: true, statusCode: null, error: null };
    } catch (error) {
      return { ok: false, statusCode: null, error: (error as Error).message };
    }
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
