import { Injectable } from '@nestjs/common';
import { JsonLogger } from '../../common/logging/json-logger';

export interface CspViolation {
  received_at: string;
  document_uri?: string;
  violated_directive?: string;
  blocked_uri?: string;
}

/** How many recent reports are kept in memory (for operators and tests); every report is also logged. */
const KEPT = 200;

/**
 * Content-Security-Policy violation reports the browser sends for /ui pages (`report-uri`). A violation means
 * either an attack blocked by the policy or a page of ours that breaks it; both are worth a warning line.
 */
@Injectable()
export class CspReports {
  private readonly recent: CspViolation[] = [];

  constructor(private readonly logger: JsonLogger) {}

  record(body: unknown): void {
    const report = (body as { 'csp-report'?: Record<string, unknown> } | null)?.['csp-report'] ?? {};
    const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 2000) : undefined);
    const violation: CspViolation = {
      received_at: new Date().toISOString(),
      document_uri: str(report['document-uri']),
      violated_directive: str(report['violated-directive'] ?? report['effective-directive']),
      blocked_uri: str(report['blocked-uri']),
    };
    this.recent.push(violation);
    if (this.recent.length > KEPT) this.recent.shift();
    this.logger.warn('csp violation', { ...violation });
  }

  list(): readonly CspViolation[] {
    return this.recent;
  }
}
