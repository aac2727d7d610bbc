import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddedPostgresRefused } from './embedded-postgres-refused';
import { describeBlocked, firstBlocked, firstUnusable, PostgresAccount } from './postgres-account';

/** The PostgreSQL programs the starter runs, inside a folder laid out like the package's `native/`. */
export interface PostgresBinaries {
  /** The folder holding bin/, lib/ and share/ (the programs find their libraries and share files from it). */
  home: string;
  initdb: string;
  postgres: string;
  /** True when `home` is the root-owned copy made for the postgres user. */
  copied: boolean;
}

/** What the copy holds: the programs need bin, lib and share, and nothing else from the package. */
const PARTS = ['bin', 'lib', 'share'];

function binariesIn(home: string, copied: boolean): PostgresBinaries {
  return { home, initdb: path.join(home, 'bin', 'initdb'), postgres: path.join(home, 'bin', 'postgres'), copied };
}

/**
 * The `native/` folder of the `@embedded-postgres/<platform>-<arch>` package that `embedded-postgres` installs,
 * resolved from that package so it is the same one its own code would use.
 */
export function packagedNativeDir(): string {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const fromPackage = createRequire(require.resolve('embedded-postgres'));
  const entry: string = fromPackage.resolve(`@embedded-postgres/${platform}-${process.arch}`);
  return fs.realpathSync(path.resolve(path.dirname(entry), '..', 'native'));
}

function packageVersion(nativeDir: string): string {
  try {
    return JSON.parse(fs.readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** /var/tmp survives reboots (the copy is made once per version), and is root-owned with the sticky bit. */
export function defaultCacheRoot(): string {
  return fs.existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir();
}

export function cacheDirFor(nativeDir: string, cacheRoot: string): string {
  const name = `veritrail-postgres-${packageVersion(nativeDir)}-${process.platform}-${process.arch}`.replace(/[^A-Za-z0-9._-]/g, '_');
  return path.join(fs.realpathSync(cacheRoot), name);
}

interface Entry {
  type: 'dir' | 'file' | 'link';
  size: number;
  executable: boolean;
  target?: string;
}

function listTree(home: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  const walk = (rel: string) => {
    for (const dirent of fs.readdirSync(path.join(home, rel), { withFileTypes: true })) {
      const child = path.join(rel, dirent.name);
      const full = path.join(home, child);
      const stat = fs.lstatSync(full);
      if (stat.isSymbolicLink()) entries.set(child, { type: 'link', size: 0, executable: false, target: fs.readlinkSync(full) });
      else if (stat.isDirectory()) {
        entries.set(child, { type: 'dir', size: 0, executable: false });
        walk(child);
      } else entries.set(child, { type: 'file', size: stat.size, executable: (stat.mode & 0o100) !== 0 });
    }
  };
  for (const part of PARTS) {
    if (!fs.existsSync(path.join(home, part))) continue;
    entries.set(part, { type: 'dir', size: 0, executable: false });
    walk(part);
  }
  return entries;
}

/**
 * Why the folders holding `dir` could let another local user swap what is in it, or undefined. Each one must be
 * owned by root (or by `ownerUid`) and not writable by group or others, unless it has the sticky bit (as /tmp and
 * /var/tmp do), which keeps others from renaming or deleting entries they do not own.
 */
export function unsafeAncestor(dir: string, ownerUid: number): string | undefined {
  for (let p = fs.realpathSync(dir); ; p = path.dirname(p)) {
    const stat = fs.lstatSync(p);
    if (stat.uid !== 0 && stat.uid !== ownerUid) return `${p} is owned by uid ${stat.uid}`;
    if (stat.mode & 0o022 && !(stat.mode & 0o1000)) return `${p} is writable by others (mode 0${(stat.mode & 0o7777).toString(8)})`;
    if (path.dirname(p) === p) return undefined;
  }
}

/**
 * Why the copy in `cacheDir` must not be run, or undefined. It must be a real folder owned by `ownerUid` (root)
 * whose every entry is owned by `ownerUid` and writable by no one else (so no other local user can have planted
 * or changed a program), with symlinks that stay inside it, and hold exactly the entries of `sourceDir` with the
 * same sizes (a copy of this version, complete).
 */
export function verifyCopy(cacheDir: string, sourceDir: string, ownerUid: number): string | undefined {
  const top = fs.lstatSync(cacheDir);
  if (!top.isDirectory()) return `${cacheDir} is not a folder`;
  const check = (full: string, stat: fs.Stats): string | undefined => {
    if (stat.uid !== ownerUid) return `${full} is owned by uid ${stat.uid}, not ${ownerUid}`;
    if (!stat.isSymbolicLink() && stat.mode & 0o022) return `${full} is writable by others (mode 0${(stat.mode & 0o7777).toString(8)})`;
    return undefined;
  };
  const problem = check(cacheDir, top);
  if (problem) return problem;
  const copy = listTree(cacheDir);
  const source = listTree(sourceDir);
  for (const [rel, entry] of copy) {
    const full = path.join(cacheDir, rel);
    const wrong = check(full, fs.lstatSync(full));
    if (wrong) return wrong;
    const expected = source.get(rel);
    if (!expected) return `${full} is not part of the PostgreSQL package`;
    if (expected.type !== entry.type || expected.size !== entry.size || expected.target !== entry.target) {
      return `${full} differs from the package's copy`;
    }
    if (entry.type === 'link') {
      const resolved = path.resolve(path.dirname(full), entry.target!);
      if (!resolved.startsWith(cacheDir + path.sep)) return `${full} points outside ${cacheDir}`;
    }
  }
  for (const rel of source.keys()) if (!copy.has(rel)) return `${path.join(cacheDir, rel)} is missing`;
  for (const program of ['initdb', 'postgres']) {
    if (!(fs.statSync(path.join(cacheDir, 'bin', program)).mode & 0o001)) return `${path.join(cacheDir, 'bin', program)} is not executable by others`;
  }
  return undefined;
}

/**
 * Copies bin, lib and share into `cacheDir`: first into a private folder beside it, then renamed into place in one
 * step, so a reader never sees half a copy and two starters racing both end with one complete copy.
 */
export function populateCopy(sourceDir: string, cacheDir: string): void {
  const partial = `${cacheDir}.partial-${randomBytes(6).toString('hex')}`;
  fs.mkdirSync(partial, { mode: 0o700 });
  try {
    for (const part of PARTS) {
      if (!fs.existsSync(path.join(sourceDir, part))) continue;
      fs.cpSync(path.join(sourceDir, part), path.join(partial, part), { recursive: true, verbatimSymlinks: true, force: false, errorOnExist: true });
    }
    const fix = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isSymbolicLink()) continue;
        if (entry.isDirectory()) {
          fs.chmodSync(full, 0o755);
          fix(full);
        } else fs.chmodSync(full, fs.statSync(full).mode & 0o100 ? 0o755 : 0o644);
      }
    };
    fix(partial);
    fs.chmodSync(partial, 0o755);
    try {
      fs.renameSync(partial, cacheDir);
    } catch (error) {
      // Another starter finished first: its copy is checked like any other.
      if (!['EEXIST', 'ENOTEMPTY', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
}

export interface BinaryOptions {
  /** The package's native folder unless set (tests point it into a private folder). */
  nativeDir?: string;
  /** Where a copy for the postgres user is made: /var/tmp unless set. */
  cacheRoot?: string;
  log?: (line: string) => void;
}

const WAYS_OUT = 'Clone the repository into a folder every user can traverse, or set DATABASE_URL to use your own PostgreSQL.';

/**
 * The binaries to run. Unless the server must run as another account (root), or that account can use the
 * package's own binaries where they are, they are used in place. Otherwise (a checkout in a private folder such
 * as /root) they are copied once into a root-owned, world-readable folder under /var/tmp, checked before every
 * use; when that cannot be done safely, one line says which path the account cannot reach and the ways out.
 */
export function prepareBinaries(account: PostgresAccount | undefined, options: BinaryOptions = {}): PostgresBinaries {
  const nativeDir = options.nativeDir ? fs.realpathSync(options.nativeDir) : packagedNativeDir();
  if (!account) return binariesIn(nativeDir, false);
  const blocked = firstUnusable(nativeDir, account);
  if (!blocked) return binariesIn(nativeDir, false);

  const cannotReach = `as root it runs as the OS user "${account.name}", which cannot use the PostgreSQL binaries in ${nativeDir} (${describeBlocked(blocked)})`;
  const cacheRoot = options.cacheRoot ?? defaultCacheRoot();
  const refuse = (why: string) => new EmbeddedPostgresRefused(`Embedded PostgreSQL cannot start: ${cannotReach}, and ${why}. ${WAYS_OUT}`);
  if (!fs.existsSync(cacheRoot)) throw refuse(`the folder for a copy they could use, ${cacheRoot}, does not exist`);
  const ownerUid = process.getuid!();
  const unsafe = unsafeAncestor(cacheRoot, ownerUid);
  if (unsafe) throw refuse(`a copy in ${cacheRoot} would not be safe from other users (${unsafe})`);
  const rootBlocked = firstBlocked(cacheRoot, account);
  if (rootBlocked) throw refuse(`it cannot reach ${cacheRoot} for a copy either (${describeBlocked(rootBlocked)})`);

  const cacheDir = cacheDirFor(nativeDir, cacheRoot);
  if (!fs.existsSync(cacheDir)) {
    options.log?.(`copying the PostgreSQL binaries to ${cacheDir} for the OS user "${account.name}"`);
    try {
      populateCopy(nativeDir, cacheDir);
    } catch (error) {
      throw refuse(`copying them to ${cacheDir} failed (${(error as Error).message})`);
    }
  }
  const wrong = verifyCopy(cacheDir, nativeDir, ownerUid);
  if (wrong) throw refuse(`the copy in ${cacheDir} is not safe to run (${wrong}; delete that folder as root to have it made again)`);
  return binariesIn(cacheDir, true);
}
