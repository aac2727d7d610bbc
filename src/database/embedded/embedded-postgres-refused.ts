/**
 * The embedded PostgreSQL will not start here, for a reason the person starting it can act on. The message is the
 * whole story in one line (what is in the way, and the ways out), so it is also the stack: whoever prints the
 * error (main.ts, jest's global setup) prints that one line and no trace.
 */
export class EmbeddedPostgresRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedPostgresRefused';
    this.stack = message;
  }
}
