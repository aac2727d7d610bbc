import { Counter, Registry } from 'prom-client';
import { droppedLogLines } from '../logging/log-sink';

/**
 * `veritrail_log_lines_dropped_total{reason}`: log lines stdout refused (ENOSPC, EPIPE, EIO, backlog ...),
 * read from the process's log sink at scrape time. The sink is the process's, so every registry reports the
 * same totals; each counter adds what is new since its last scrape.
 */
export function registerLogSinkMetrics(registers: Registry[]): void {
  const reported = new Map<string, number>();
  new Counter({
    name: 'veritrail_log_lines_dropped_total',
    help: 'Log lines dropped because the log output (stdout) could not be written, by reason (the error code, or backlog)',
    labelNames: ['reason'],
    registers,
    collect() {
      for (const [reason, total] of droppedLogLines()) {
        const added = total - (reported.get(reason) ?? 0);
        if (added > 0) this.inc({ reason }, added);
        reported.set(reason, total);
      }
    },
  });
}
