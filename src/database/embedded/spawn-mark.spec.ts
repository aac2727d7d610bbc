import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddedPostgresRefused } from './embedded-postgres-refused';
import { holdingSpawnMark, takeSpawnMark } from './spawn-mark';

describe('the spawn mark of a cluster folder', () => {
  let clusterDir: string;
  beforeAll(() => (clusterDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-mark-')), 'pg')));
  afterAll(() => fs.rmSync(path.dirname(clusterDir), { recursive: true, force: true }));

  it('is held by one taker at a time: the next waits for the release, and past its wait refuses in one line', async () => {
    const first = await takeSpawnMark(clusterDir);
    await expect(takeSpawnMark(clusterDir, 200)).rejects.toThrow(
      new EmbeddedPostgresRefused(
        `Embedded PostgreSQL not started: a PostgreSQL for ${clusterDir} has been starting for over 0 s (a process still holds its spawn mark). Start again once it is up or gone.`,
      ),
    );
    // Another folder's mark is another.
    (await takeSpawnMark(`${clusterDir}-other`, 200)).release();
    const second = takeSpawnMark(clusterDir, 5_000);
    setTimeout(() => first.release(), 200);
    (await second).release();
  });

  it('is held while a spawn runs, and released after it, also when it throws', async () => {
    let during: Promise<unknown> | undefined;
    const result = await holdingSpawnMark(clusterDir, () => {
      during = takeSpawnMark(clusterDir, 0);
      return 'spawned';
    });
    expect(result).toBe('spawned');
    await expect(during).rejects.toThrow(EmbeddedPostgresRefused);
    await expect(
      holdingSpawnMark(clusterDir, () => {
        throw new Error('spawn failed');
      }),
    ).rejects.toThrow('spawn failed');
    (await takeSpawnMark(clusterDir, 200)).release();
  });
});
