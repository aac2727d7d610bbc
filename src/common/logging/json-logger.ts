import { LoggerService } from '@nestjs/common';
import { stdoutSink } from './log-sink';
import { currentRequestId } from './request-context';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** `json`: one object per line; `pretty`: one readable line per entry, for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

/**
 * Structured JSON logs, one object per line on stdout, so Kubernetes log collectors can index fields
 * (request_id, org, status) without parsing prose. Also serves as Nest's own logger. A line written while a
 * request is being served carries that request's `request_id` (request-context.ts), whoever writes it.
 */
export class JsonLogger implements LoggerService {
  private readonly out: (line: string) => void;

  /** Without `out`, lines go to stdout through its LogSink: a full or broken stdout drops lines, never the process. */
  constructor(
    private readonly level: Level | 'silent' = 'info',
    private readonly format: LogFormat = 'json',
    out?: (line: string) => void,
  ) {
    if (out) {
      this.out = out;
      return;
    }
    const sink = stdoutSink();
    this.out = (line) => sink.write(line);
    sink.onRecovered ??= (dropped, reason) => this.warn('log lines were dropped while the log output failed', { dropped, reason });
  }

  /** False when lines of this level are dropped (lets hot paths skip building them). */
  isLevelEnabled(level: Level): boolean {
    return ORDER[level] >= ORDER[this.level];
  }

  private write(level: Level, msg: unknown, fields?: Record<string, unknown>): void {
    if (!this.isLevelEnabled(level)) return;
    const requestId = currentRequestId();
    const line = {
      time: new Date().toISOString(),
      level,
      msg: typeof msg === 'string' ? msg : String(msg),
      ...(requestId === undefined ? undefined : { request_id: requestId }),
      ...fields,
    };
    this.out(this.format === 'json' ? JSON.stringify(line) + '\n' : pretty(line));
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

/** `12:00:01.234 INFO  request  request_id=... status=200`: the same fields, for reading. */
function pretty(line: { time: string; level: string; msg: string } & Record<string, unknown>): string {
  const { time, level, msg, ...fields } = line;
  const rest = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v)}`)
    .join(' ');
  return `${time.slice(11, 23)} ${level.toUpperCase().padEnd(5)} ${msg}${rest ? '  ' + rest : ''}\n`;
}
