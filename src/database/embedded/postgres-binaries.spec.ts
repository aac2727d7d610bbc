import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddedPostgresRefused } from './embedded-postgres-refused';
import { PostgresAccount } from './postgres-account';
import { cacheDirFor, populateCopy, prepareBinaries, unsafeAncestor, verifyCopy } from './postgres-binaries';

const me = process.getuid!();
const asRoot = me === 0;
const pg: PostgresAccount = { name: 'postgres', uid: 5001, gid: 5002 };

/** A package-like tree: native/ with bin, lib (and a symlink in it), share, and the package.json above it. */
function fakePackage(top: string): string {
  const native = path.join(top, 'pkg', 'native');
  for (const dir of ['bin', 'lib', 'share/timezone']) fs.mkdirSync(path.join(native, dir), { recursive: true });
  fs.writeFileSync(path.join(top, 'pkg', 'package.json'), JSON.stringify({ version: '1.2.3' }));
  fs.writeFileSync(path.join(native, 'bin', 'initdb'), '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(native, 'bin', 'postgres'), '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(native, 'lib', 'libpq.so.5.18'), 'lib', { mode: 0o644 });
  fs.symlinkSync('libpq.so.5.18', path.join(native, 'lib', 'libpq.so.5'));
  fs.writeFileSync(path.join(native, 'share', 'timezone', 'UTC'), 'tz', { mode: 0o644 });
  fs.writeFileSync(path.join(native, 'pg-symlinks.json'), '[]');
  return native;
}

describe('the copy of the PostgreSQL binaries made for the postgres user', () => {
  let top: string;
  let native: string;
  let cacheRoot: string;
  beforeEach(() => {
    top = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-bin-'));
    fs.chmodSync(top, 0o755);
    native = fakePackage(top);
    cacheRoot = path.join(top, 'cache');
    fs.mkdirSync(cacheRoot, { mode: 0o755 });
  });
  afterEach(() => fs.rmSync(top, { recursive: true, force: true }));

  it('is used in place when the account can use it, and not needed without an account (not root)', () => {
    expect(prepareBinaries(pg, { nativeDir: native, cacheRoot })).toEqual({
      home: native,
      initdb: path.join(native, 'bin', 'initdb'),
      postgres: path.join(native, 'bin', 'postgres'),
      copied: false,
    });
    expect(prepareBinaries(undefined, { nativeDir: native, cacheRoot }).copied).toBe(false);
    expect(fs.readdirSync(cacheRoot)).toEqual([]);
  });

  it('is made once, complete, with modes the account can use and no one else can write, when the package is in a private folder', () => {
    fs.chmodSync(path.join(top, 'pkg'), 0o700);
    const first = prepareBinaries(pg, { nativeDir: native, cacheRoot });
    const copy = cacheDirFor(native, cacheRoot);
    expect(first).toEqual({ home: copy, initdb: path.join(copy, 'bin', 'initdb'), postgres: path.join(copy, 'bin', 'postgres'), copied: true });
    expect(path.basename(copy)).toBe(`veritrail-postgres-1.2.3-${process.platform}-${process.arch}`);
    expect(fs.readdirSync(cacheRoot)).toEqual([path.basename(copy)]);
    expect(fs.readdirSync(copy).sort()).toEqual(['bin', 'lib', 'share']);
    expect(fs.statSync(copy).mode & 0o7777).toBe(0o755);
    expect(fs.statSync(first.postgres).mode & 0o7777).toBe(0o755);
    expect(fs.statSync(path.join(copy, 'share', 'timezone', 'UTC')).mode & 0o7777).toBe(0o644);
    expect(fs.readlinkSync(path.join(copy, 'lib', 'libpq.so.5'))).toBe('libpq.so.5.18');
    expect(verifyCopy(copy, native, me)).toBeUndefined();
    const made = fs.statSync(first.postgres).mtimeMs;
    expect(prepareBinaries(pg, { nativeDir: native, cacheRoot })).toEqual(first);
    expect(fs.statSync(first.postgres).mtimeMs).toBe(made);
  });

  it('is not run once someone else could have changed it: writable by others, extra or missing files, other sizes, symlinks out', () => {
    const copy = cacheDirFor(native, cacheRoot);
    const fresh = () => {
      fs.rmSync(copy, { recursive: true, force: true });
      populateCopy(native, copy);
      expect(verifyCopy(copy, native, me)).toBeUndefined();
    };
    fresh();
    fs.chmodSync(path.join(copy, 'bin', 'postgres'), 0o775);
    expect(verifyCopy(copy, native, me)).toMatch(/bin\/postgres is writable by others/);
    fresh();
    fs.chmodSync(path.join(copy, 'lib'), 0o757);
    expect(verifyCopy(copy, native, me)).toMatch(/lib is writable by others/);
    fresh();
    fs.writeFileSync(path.join(copy, 'bin', 'pg_dump'), 'planted', { mode: 0o755 });
    expect(verifyCopy(copy, native, me)).toMatch(/bin\/pg_dump is not part of the PostgreSQL package/);
    fresh();
    fs.appendFileSync(path.join(copy, 'bin', 'postgres'), 'more');
    expect(verifyCopy(copy, native, me)).toMatch(/bin\/postgres differs/);
    fresh();
    fs.rmSync(path.join(copy, 'share', 'timezone', 'UTC'));
    expect(verifyCopy(copy, native, me)).toMatch(/timezone\/UTC is missing/);
    fresh();
    fs.rmSync(path.join(copy, 'lib', 'libpq.so.5'));
    fs.symlinkSync('../../../../etc/passwd', path.join(copy, 'lib', 'libpq.so.5'));
    expect(verifyCopy(copy, native, me)).toMatch(/libpq.so.5 differs/);
    if (asRoot) {
      fresh();
      fs.chownSync(path.join(copy, 'bin', 'initdb'), 65534, 65534);
      expect(verifyCopy(copy, native, me)).toMatch(/bin\/initdb is owned by uid 65534/);
    }
  });

  it('is refused in one line, naming the unreachable package and the ways out, where others could swap it', () => {
    fs.chmodSync(path.join(top, 'pkg'), 0o700);
    fs.chmodSync(cacheRoot, 0o777); // world-writable without the sticky bit
    expect(unsafeAncestor(cacheRoot, me)).toMatch(/writable by others \(mode 0777\)/);
    const attempt = () => prepareBinaries(pg, { nativeDir: native, cacheRoot });
    expect(attempt).toThrow(EmbeddedPostgresRefused);
    expect(attempt).toThrow(
      new RegExp(`cannot use the PostgreSQL binaries in ${native} \\(${path.join(top, 'pkg')} is mode 0700\\).*would not be safe.*traverse.*DATABASE_URL`),
    );
    expect(fs.readdirSync(cacheRoot)).toEqual([]);
    fs.chmodSync(cacheRoot, 0o1777); // the sticky bit, as /tmp and /var/tmp have
    expect(unsafeAncestor(cacheRoot, me)).toBeUndefined();
  });

  it('is refused in one line when it exists but is not safe to run, and is left as found', () => {
    fs.chmodSync(path.join(top, 'pkg'), 0o700);
    const copy = cacheDirFor(native, cacheRoot);
    populateCopy(native, copy);
    fs.chmodSync(path.join(copy, 'bin', 'initdb'), 0o777);
    expect(() => prepareBinaries(pg, { nativeDir: native, cacheRoot })).toThrow(/the copy in .* is not safe to run \(.*bin\/initdb is writable by others/);
    expect(fs.statSync(path.join(copy, 'bin', 'initdb')).mode & 0o7777).toBe(0o777);
  });
});
