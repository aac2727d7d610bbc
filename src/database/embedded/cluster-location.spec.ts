import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { clusterKey, clusterLocation } from './cluster-location';

const asRoot = process.getuid?.() === 0;

describe('clusterLocation', () => {
  const made: string[] = [];
  const folder = (mode: number) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-location-'));
    fs.chmodSync(dir, mode);
    made.push(dir);
    return dir;
  };
  afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('keeps an explicit DATA_DIR\'s cluster in it, reachable or not', () => {
    const dataDir = path.join(folder(0o700), '.data');
    expect(clusterLocation(dataDir, { dataDirIsDefault: false, sharedRoot: folder(0o755) })).toEqual({ clusterDir: path.join(dataDir, 'pg') });
  });

  it('keeps the default data folder\'s cluster in it when the postgres user can reach it', () => {
    const dataDir = path.join(folder(0o755), '.data');
    expect(clusterLocation(dataDir, { dataDirIsDefault: true, sharedRoot: folder(0o755) })).toEqual({ clusterDir: path.join(dataDir, 'pg') });
  });

  (asRoot ? it : it.skip)('as root, moves the default data folder\'s cluster to the shared folder, keyed by the data folder, when the postgres user cannot reach it', () => {
    const clone = folder(0o700);
    const dataDir = path.join(clone, '.data');
    const shared = folder(0o755);
    const location = clusterLocation(dataDir, { dataDirIsDefault: true, sharedRoot: shared });
    expect(location).toEqual({ clusterDir: path.join(shared, clusterKey(dataDir), 'pg'), movedBecause: `${clone} is mode 0700` });
    expect(clusterKey(dataDir)).toMatch(/^[0-9a-f]{16}$/);
    expect(clusterKey(path.join(folder(0o700), '.data'))).not.toBe(clusterKey(dataDir));

    // Made reachable later, with no cluster of its own: the one kept away is still the one used.
    fs.mkdirSync(path.join(location.clusterDir), { recursive: true });
    fs.writeFileSync(path.join(location.clusterDir, 'PG_VERSION'), '18\n');
    fs.chmodSync(clone, 0o755);
    expect(clusterLocation(dataDir, { dataDirIsDefault: true, sharedRoot: shared }).clusterDir).toBe(location.clusterDir);
    // ...unless it has a cluster of its own.
    fs.mkdirSync(path.join(dataDir, 'pg'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'pg', 'PG_VERSION'), '18\n');
    expect(clusterLocation(dataDir, { dataDirIsDefault: true, sharedRoot: shared })).toEqual({ clusterDir: path.join(dataDir, 'pg') });
  });
});
