import * as fs from 'node:fs';

const MAX_BACKLOG_BYTES = 8 * 1024 * 1024;

/** Errors after which the output never works again (the reader is gone, the descriptor is closed). */
const PERMANENT = new Set(['EPIPE', 'EBADF', 'ECONNRESET', 'ENOTCONN', 'ERR_STREAM_DESTROYED']);

/**
 * Where log lines go: a file descriptor (stdout), written with one `write(2)` per line. Writing a log line
 * must never stop the service, so a line the output refuses is dropped and counted by reason (the errno:
 * ENOSPC for a full disk, EPIPE for a pipe whose reader went away, EIO for a closed terminal, EAGAIN for a
 * non-blocking pipe that is full), and the next line is tried again: a disk that gets space back gets lines
 * again. After EPIPE or EBADF nothing is tried any more (the reader never comes back).
 *
 * Not `process.stdout.write`: on a file it is a stream that destroys itself at the first ENOSPC (no line
 * ever again, even after space returns), and on a pipe an EPIPE is an 'error' event that, unheard, ends the
 * process. Both streams still get a listener (see `stdoutSink`), for anything else that writes through them.
 *
 * The first dropped line of a failure writes one line to `notice` (stderr, which may still work); the first
 * line written after it is preceded by `onRecovered`, so the log itself says how many lines are missing.
 */
export class LogSink {
  /** Lines dropped since the process started, by reason. */
  readonly dropped = new Map<string, number>();
  private failing: string | null = null;
  private droppedWhileFailing = 0;
  private broken: string | null = null;
  private torn = false;
  /** Called with the count and the reason when lines get through again after some were dropped. */
  onRecovered?: (dropped: number, reason: string) => void;

  constructor(
    private readonly fd: number,
    private readonly notice: (line: string) => void = (line) => writeQuietly(2, line),
    /** Where a line waits when the descriptor is a non-blocking pipe that is full (`process.stdout`). */
    private readonly fallback?: NodeJS.WritableStream & { writableLength: number; destroyed: boolean },
  ) {}

  write(line: string): void {
    if (this.broken) return this.drop(this.broken);
    // Lines the fallback stream still holds go first, so lines keep their order.
    if (this.fallback && this.fallback.writableLength > 0) return this.queue(line);
    // A line cut short (the disk filled in its middle) is ended before the next one, so the two stay apart.
    const text = this.torn ? '\n' + line : line;
    try {
      const bytes = Buffer.byteLength(text);
      const written = fs.writeSync(this.fd, text);
      this.torn = false;
      // A pipe or a file with less room than the line takes part of it: the rest goes on its own.
      if (written < bytes) this.writeRest(Buffer.from(text).subarray(written));
    } catch (error) {
      const reason = errorCode(error);
      if (reason === 'EAGAIN' && this.fallback) return this.queue(line);
      if (PERMANENT.has(reason)) this.broken = reason;
      return this.drop(reason);
    }
    this.recovered();
  }

  private writeRest(rest: Buffer): void {
    for (let offset = 0; offset < rest.length; ) {
      try {
        offset += fs.writeSync(this.fd, rest, offset);
      } catch (error) {
        // A non-blocking pipe that is full: the rest waits in the stream (never a torn line).
        if (errorCode(error) === 'EAGAIN' && this.fallback) return this.queue(rest.subarray(offset));
        this.torn = true;
        throw error;
      }
    }
  }

  /**
   * A non-blocking pipe that is full (its reader is slow): the line waits in the stream's buffer, up to
   * MAX_BACKLOG_BYTES; past that it is dropped (`backlog`), so a reader that stopped reading cannot make the
   * service hold its log in memory without bound.
   */
  private queue(data: string | Buffer): void {
    const stream = this.fallback!;
    if (stream.destroyed) return this.drop('EPIPE');
    if (stream.writableLength > MAX_BACKLOG_BYTES) return this.drop('backlog');
    stream.write(data);
    this.recovered();
  }

  private recovered(): void {
    if (!this.failing) return;
    const [dropped, reason] = [this.droppedWhileFailing, this.failing];
    this.failing = null;
    this.droppedWhileFailing = 0;
    this.onRecovered?.(dropped, reason);
  }

  /** A line another writer (a stream on the same output) lost: counted like the sink's own. */
  lost(error: unknown): void {
    const reason = errorCode(error);
    if (PERMANENT.has(reason)) this.broken ??= reason;
    this.drop(reason);
  }

  private drop(reason: string): void {
    this.dropped.set(reason, (this.dropped.get(reason) ?? 0) + 1);
    this.droppedWhileFailing++;
    if (this.failing) return;
    this.failing = reason;
    this.notice(
      JSON.stringify({
        time: new Date().toISOString(),
        level: 'error',
        msg: 'log output failed: log lines are dropped (counted in veritrail_log_lines_dropped_total) until it works again; the service keeps serving',
        reason,
        fd: this.fd,
      }) + '\n',
    );
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : 'error';
}

function writeQuietly(fd: number, line: string): void {
  try {
    fs.writeSync(fd, line);
  } catch {
    /* that output fails too: nothing left to tell */
  }
}

let stdout: LogSink | undefined;

/**
 * The process's stdout as a LogSink, made once. Making it also gives `process.stdout` and `process.stderr` an
 * 'error' listener, so an EPIPE on either (from a library that writes to them) is counted, not fatal.
 */
export function stdoutSink(): LogSink {
  if (stdout) return stdout;
  const sink = new LogSink(1, undefined, process.stdout);
  stdout = sink;
  process.stdout.on('error', (error) => sink.lost(error));
  process.stderr.on('error', () => undefined);
  return sink;
}

/** Lines of the process's stdout dropped so far, by reason (empty until the sink is made). */
export function droppedLogLines(): ReadonlyMap<string, number> {
  return stdout?.dropped ?? new Map();
}
