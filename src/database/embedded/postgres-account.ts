import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EmbeddedPostgresRefused } from './embedded-postgres-refused';

/**
 * PostgreSQL refuses to run as root, so as root the embedded server runs as the OS user `postgres`. Node starts
 * it with that uid and gid and no supplementary groups (libuv drops them), so the owner, group and other bits
 * of a folder say exactly what that process may do there.
 */
export interface PostgresAccount {
  name: string;
  /** -1 while the account does not exist yet: a new account owns nothing and is in no folder's group. */
  uid: number;
  gid: number;
}

export const POSTGRES_ACCOUNT = 'postgres';

export function runningAsRoot(): boolean {
  return process.getuid?.() === 0;
}

function idOf(flag: '-u' | '-g', name: string): number | undefined {
  try {
    return Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    return undefined;
  }
}

/** The account as it is now, without creating it. */
export function lookupPostgresAccount(name = POSTGRES_ACCOUNT): PostgresAccount {
  const uid = idOf('-u', name);
  const gid = idOf('-g', name);
  return uid === undefined || gid === undefined ? { name, uid: -1, gid: -1 } : { name, uid, gid };
}

/** The account, created (a system user without a home) if it does not exist yet. */
export function ensurePostgresAccount(name = POSTGRES_ACCOUNT): PostgresAccount {
  const found = lookupPostgresAccount(name);
  if (found.uid !== -1) return found;
  try {
    if (idOf('-g', name) === undefined) {
      try {
        execFileSync('groupadd', ['--system', name], { stdio: ['ignore', 'ignore', 'pipe'] });
      } catch (error) {
        // 9: the group exists already (useradd below still needs it, and will say so if it is missing).
        if ((error as { status?: number }).status !== 9) throw error;
      }
    }
    execFileSync('useradd', ['--system', '--gid', name, '--no-create-home', name], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const why = String((error as { stderr?: Buffer }).stderr ?? '').trim().split('\n')[0] || (error as Error).message;
    throw new EmbeddedPostgresRefused(
      `Embedded PostgreSQL cannot start: as root it must run as the OS user "${name}", which does not exist and could not be created (${why}). Create that user, or set DATABASE_URL to use your own PostgreSQL.`,
    );
  }
  const created = lookupPostgresAccount(name);
  if (created.uid === -1) throw new EmbeddedPostgresRefused(`Embedded PostgreSQL cannot start: the OS user "${name}" was created but cannot be looked up.`);
  return created;
}

/** Whether `account` has all of `bits` (4 read, 2 write, 1 execute/search) on a file with this owner and mode. */
export function permits(stat: Pick<fs.Stats, 'uid' | 'gid' | 'mode'>, account: PostgresAccount, bits: number): boolean {
  const shift = stat.uid === account.uid ? 6 : stat.gid === account.gid ? 3 : 0;
  return ((stat.mode >> shift) & bits) === bits;
}

export interface Blocked {
  path: string;
  mode: number;
}

/** The folders from `/` down to `dir` (inclusive), resolved through symlinks, which is how the kernel walks them. */
function realChain(dir: string): string[] {
  const real = fs.realpathSync(dir);
  const chain: string[] = [];
  for (let p = real; ; p = path.dirname(p)) {
    chain.unshift(p);
    if (path.dirname(p) === p) return chain;
  }
}

/**
 * The first folder on the way to `target` that `account` may not pass (search permission), or undefined. Only the
 * part that exists is checked: folders made later are made by this process with a searchable mode. With
 * `includeTarget` false, `target` itself is left out (the caller will fix its mode).
 */
export function firstBlocked(target: string, account: PostgresAccount, includeTarget = true): Blocked | undefined {
  let existing = path.resolve(target);
  let checkLast = includeTarget;
  while (!fs.existsSync(existing)) {
    existing = path.dirname(existing);
    checkLast = true;
  }
  const chain = realChain(existing);
  if (!checkLast) chain.pop();
  for (const dir of chain) {
    const stat = fs.statSync(dir);
    if (stat.isDirectory() && !permits(stat, account, 1)) return { path: dir, mode: stat.mode & 0o7777 };
  }
  return undefined;
}

/**
 * The first entry under `root` (or on the way to it) that `account` cannot use: folders need read and search,
 * files read, and execute too when their owner may execute them. Symlinks are judged by what they point to,
 * which is in the tree as well.
 */
export function firstUnusable(root: string, account: PostgresAccount): Blocked | undefined {
  const onTheWay = firstBlocked(root, account);
  if (onTheWay) return onTheWay;
  const walk = (dir: string): Blocked | undefined => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) continue;
      const full = path.join(dir, entry.name);
      const stat = fs.lstatSync(full);
      const needs = entry.isDirectory() ? 5 : stat.mode & 0o100 ? 5 : 4;
      if (!permits(stat, account, needs)) return { path: full, mode: stat.mode & 0o7777 };
      if (entry.isDirectory()) {
        const inner = walk(full);
        if (inner) return inner;
      }
    }
    return undefined;
  };
  const top = fs.statSync(root);
  if (!permits(top, account, 5)) return { path: root, mode: top.mode & 0o7777 };
  return walk(root);
}

export function describeBlocked(blocked: Blocked): string {
  return `${blocked.path} is mode 0${blocked.mode.toString(8)}`;
}
