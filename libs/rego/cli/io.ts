/**
 * Output sinks for the CLI. Commands write through this instead of process.stdout so the specs can run them
 * in-process (spawning ts-node per case would cost seconds each).
 */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

/** Collects output in memory (used by specs). */
export class BufferIo implements CliIo {
  stdout = '';
  stderr = '';
  out(text: string): void {
    this.stdout += text;
  }
  err(text: string): void {
    this.stderr += text;
  }
}
