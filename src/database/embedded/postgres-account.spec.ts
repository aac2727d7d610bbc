import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { firstBlocked, firstUnusable, permits, PostgresAccount } from './postgres-account';

const pg: PostgresAccount = { name: 'postgres', uid: 5001, gid: 5002 };

describe('permits: the owner, group and other bits that apply to the postgres account', () => {
  it.each([
    ['owner bits when it owns the file', { uid: 5001, gid: 0, mode: 0o700 }, 1, true],
    ['only the owner bits when it owns the file, even if others may', { uid: 5001, gid: 0, mode: 0o077 }, 1, false],
    ['group bits when the file is in its group', { uid: 0, gid: 5002, mode: 0o710 }, 1, true],
    ['only the group bits when in its group, even if others may', { uid: 0, gid: 5002, mode: 0o701 }, 1, false],
    ['other bits otherwise', { uid: 0, gid: 0, mode: 0o701 }, 1, true],
    ['a private folder', { uid: 0, gid: 0, mode: 0o700 }, 1, false],
    ['every bit asked for', { uid: 0, gid: 0, mode: 0o704 }, 5, false],
  ])('%s', (_name, stat, bits, expected) => expect(permits(stat, pg, bits)).toBe(expected));

  it('a new account (uid and gid -1) falls under the other bits', () => {
    expect(permits({ uid: 0, gid: 0, mode: 0o755 }, { name: 'postgres', uid: -1, gid: -1 }, 5)).toBe(true);
    expect(permits({ uid: 0, gid: 0, mode: 0o750 }, { name: 'postgres', uid: -1, gid: -1 }, 5)).toBe(false);
  });
});

describe('firstBlocked and firstUnusable: which path the postgres account cannot get through', () => {
  let top: string;
  beforeEach(() => {
    top = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-reach-'));
    fs.chmodSync(top, 0o755);
  });
  afterEach(() => fs.rmSync(top, { recursive: true, force: true }));

  it('names the private folder on the way, for paths that exist and paths still to be made', () => {
    const priv = path.join(top, 'private');
    fs.mkdirSync(path.join(priv, 'checkout'), { recursive: true });
    fs.chmodSync(priv, 0o700);
    expect(firstBlocked(path.join(priv, 'checkout'), pg)).toEqual({ path: priv, mode: 0o700 });
    expect(firstBlocked(path.join(priv, 'checkout', '.data', 'pg'), pg)).toEqual({ path: priv, mode: 0o700 });
    expect(firstBlocked(path.join(top, 'open', 'data'), pg)).toBeUndefined();
  });

  it('leaves the target itself out when asked (the starter opens DATA_DIR itself)', () => {
    const data = path.join(top, 'data');
    fs.mkdirSync(data, { mode: 0o700 });
    expect(firstBlocked(data, pg, false)).toBeUndefined();
    expect(firstBlocked(data, pg, true)).toEqual({ path: data, mode: 0o700 });
  });

  it('follows symlinks to where the folders really are', () => {
    const priv = path.join(top, 'private');
    fs.mkdirSync(path.join(priv, 'data'), { recursive: true });
    fs.chmodSync(priv, 0o700);
    fs.symlinkSync(path.join(priv, 'data'), path.join(top, 'link'));
    expect(firstBlocked(path.join(top, 'link'), pg)).toEqual({ path: priv, mode: 0o700 });
  });

  it('needs every folder readable and every program executable in a binaries tree', () => {
    const tree = path.join(top, 'native');
    fs.mkdirSync(path.join(tree, 'bin'), { recursive: true, mode: 0o755 });
    fs.mkdirSync(path.join(tree, 'lib'), { mode: 0o755 });
    fs.writeFileSync(path.join(tree, 'bin', 'postgres'), '', { mode: 0o755 });
    fs.writeFileSync(path.join(tree, 'lib', 'libpq.so.5'), '', { mode: 0o644 });
    fs.symlinkSync('libpq.so.5', path.join(tree, 'lib', 'libpq.so'));
    expect(firstUnusable(tree, pg)).toBeUndefined();
    fs.chmodSync(path.join(tree, 'bin', 'postgres'), 0o744);
    expect(firstUnusable(tree, pg)).toEqual({ path: path.join(tree, 'bin', 'postgres'), mode: 0o744 });
    fs.chmodSync(path.join(tree, 'bin', 'postgres'), 0o755);
    fs.chmodSync(path.join(tree, 'lib', 'libpq.so.5'), 0o600);
    expect(firstUnusable(tree, pg)).toEqual({ path: path.join(tree, 'lib', 'libpq.so.5'), mode: 0o600 });
  });
});
