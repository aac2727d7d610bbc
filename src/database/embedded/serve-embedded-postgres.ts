/**
 * Runs only the embedded PostgreSQL: prints one JSON line `{"url": ...}` when ready and stops cleanly on
 * SIGINT/SIGTERM/SIGHUP. The e2e tests start their database this way (one server for the whole run, outliving any one
 * test file), and developers can use it to point a debugger-run app at a local database.
 *   node dist/src/database/embedded/serve-embedded-postgres.js <dataDir> [port]
 * `EMBEDDED_PG_FAST=1` turns fsync off (the test harness sets it); it is validated like the service's settings.
 * A start that is refused (as root, a folder the postgres user cannot reach) prints its one line and exits 1.
 */
import { ConfigError, loadEmbeddedPgFast } from '../../common/config/app-config';
import { startEmbeddedPostgres } from './embedded-postgres';
import { EmbeddedPostgresRefused } from './embedded-postgres-refused';

async function main(): Promise<void> {
  const dataDir = process.argv[2] || '.data';
  const port = process.argv[3] ? Number(process.argv[3]) : undefined;
  const db = await startEmbeddedPostgres({ dataDir, port, fast: loadEmbeddedPgFast() });
  process.stdout.write(JSON.stringify({ url: db.url, port: db.port }) + '\n');
  const stop = () => db.stop().then(() => process.exit(0));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, stop);
}

main().catch((error) => {
  const line =
    error instanceof ConfigError
      ? `Configuration error: ${error.message}`
      : error instanceof EmbeddedPostgresRefused
        ? error.message
        : `${error?.stack ?? error}`;
  process.stderr.write(line + '\n');
  process.exit(1);
});
