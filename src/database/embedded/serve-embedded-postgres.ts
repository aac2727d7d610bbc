/**
 * Runs only the embedded PostgreSQL: prints one JSON line `{"url": ...}` when ready and stops cleanly on
 * SIGINT/SIGTERM. The e2e tests start their database this way (jest cannot load the ESM package itself), and
 * developers can use it to point a debugger-run app at a local database.
 *   node dist/src/database/embedded/serve-embedded-postgres.js <dataDir> [port]
 * `EMBEDDED_PG_FAST=1` turns fsync off (the test harness sets it); it is validated like the service's settings.
 */
import { ConfigError, loadEmbeddedPgFast } from '../../common/config/app-config';
import { startEmbeddedPostgres } from './embedded-postgres';

async function main(): Promise<void> {
  const dataDir = process.argv[2] || '.data';
  const port = process.argv[3] ? Number(process.argv[3]) : undefined;
  const db = await startEmbeddedPostgres({ dataDir, port, fast: loadEmbeddedPgFast() });
  process.stdout.write(JSON.stringify({ url: db.url, port: db.port }) + '\n');
  const stop = () => db.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  process.stderr.write(error instanceof ConfigError ? `Configuration error: ${error.message}\n` : `${error?.stack ?? error}\n`);
  process.exit(1);
});
