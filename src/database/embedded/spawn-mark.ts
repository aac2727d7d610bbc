import { createHash } from 'node:crypto';
import * as net from 'node:net';
import { EmbeddedPostgresRefused } from './embedded-postgres-refused';

/**
 * The spawn mark of a cluster: held by a service while it spawns a postmaster for the cluster, and by the spawned
 * child itself until it has become PostgreSQL.
 *
 * Between fork and exec the child is a copy of its service (its command line is the service's), and the owner
 * record is written only once the spawn returns: a service killed in that window leaves a child that nothing names
 * and that becomes a postmaster of the folder a moment later, after the next start has looked and found nothing.
 * The mark is a listening socket in Linux's abstract namespace named after the cluster folder. Made close-on-exec,
 * it is inherited by the forked child and closed by the child's exec (or exit), and its name is free only once no
 * process holds it. So a start that takes the mark before it looks sees no postmaster still on its way in: by then
 * each one has its own command line (`-D`, `veritrail.service`), which the orphan scan reads.
 *
 * Elsewhere than Linux (no /proc scan either), or where such a socket cannot be made, there is no mark and starts
 * go on without it.
 */
export interface SpawnMark {
  release(): void;
}

/** How long a start waits for a postmaster being spawned in its folder to become PostgreSQL (normally milliseconds). */
export const SPAWN_MARK_WAIT_MS = 10_000;

const NO_MARK: SpawnMark = { release: () => undefined };

/** The mark's abstract socket name (leading NUL), one per cluster folder. */
export function spawnMarkName(clusterDir: string): string {
  return `\0veritrail-pg-spawn-${createHash('sha256').update(clusterDir).digest('hex').slice(0, 32)}`;
}

/** The mark if it is free now; undefined if a process holds it; NO_MARK if no socket can be made here. */
function tryTake(name: string): Promise<SpawnMark | undefined> {
  return new Promise((resolve) => {
    // Nobody is meant to connect; one who does is hung up on.
    const server = net.createServer((socket) => socket.destroy());
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE' ? undefined : NO_MARK));
    server.listen(name, () => {
      server.unref();
      resolve({ release: () => server.close() });
    });
  });
}

/**
 * Takes the spawn mark of `clusterDir`, waiting while another process holds it; refuses in one line if it is still
 * held after `timeoutMs`.
 */
export async function takeSpawnMark(clusterDir: string, timeoutMs = SPAWN_MARK_WAIT_MS): Promise<SpawnMark> {
  if (process.platform !== 'linux') return NO_MARK;
  const name = spawnMarkName(clusterDir);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mark = await tryTake(name);
    if (mark) return mark;
    if (Date.now() >= deadline) {
      throw new EmbeddedPostgresRefused(
        `Embedded PostgreSQL not started: a PostgreSQL for ${clusterDir} has been starting for over ${Math.round(timeoutMs / 1000)} s (a process still holds its spawn mark). Start again once it is up or gone.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs `fn` (a spawn of a postmaster of `clusterDir`, and its record) holding the cluster's spawn mark. */
export async function holdingSpawnMark<T>(clusterDir: string, fn: () => T): Promise<T> {
  const mark = await takeSpawnMark(clusterDir);
  try {
    return fn();
  } finally {
    mark.release();
  }
}
