import { LoggerService } from '@nestjs/common';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/**
 * Structured JSON logs, one object per line on stdout, so Kubernetes log collectors can index fields
 * (request_id, org, status) without parsing prose. Also serves as Nest's own logger.
 */
export class JsonLogger implements LoggerService {
  constructor(private readonly level: Level | 'silent' = 'info') {}

  /** False when lines of this level are dropped (lets hot paths skip building them). */
  isLevelEnabled(level: Level): boolean {
    return ORDER[level] >= ORDER[this.level];
  }

  private write(level: Level, msg: unknown, fields?: Record<string, unknown>): void {
    if (!this.isLevelEnabled(level)) return;
    const line = { time: new Date().toISOString(), level, msg: typeof msg === 'string' ? msg : String(msg), ...fields };
    process.stdout.write(JSON.stringify(line) + '\n');
  }

  debug(msg: unknown, fields?: Record<string, unknown> | string): void {
    this.write('debug', msg, asFields(fields));
  }
  verbose(msg: unknown, fields?: Record<string, unknown> | string): void {
    this.write('debug', msg, asFields(fields));
  }
  log(msg: unknown, fields?: Record<string, unknown> | string): void {
    this.write('info', msg, asFields(fields));
  }
  info(msg: unknown, fields?: Record<string, unknown>): void {
    this.write('info', msg, fields);
  }
  warn(msg: unknown, fields?: Record<string, unknown> | string): void {
    this.write('warn', msg, asFields(fields));
  }
  error(msg: unknown, fields?: Record<string, unknown> | string, context?: string): void {
    const f = asFields(fields) ?? {};
    if (context) f.context = context;
    this.write('error', msg, f);
  }
}

/** Nest passes the context name as a trailing string argument. */
function asFields(fields?: Record<string, unknown> | string): Record<string, unknown> | undefined {
  if (fields === undefined) return undefined;
  return typeof fields === 'string' ? { context: fields } : fields;
}
