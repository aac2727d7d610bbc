import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DbProcess, startDbProcess } from './embedded-db-process';
import { ServiceProcess, startService } from './service-process';

/**
 * A database of its own and service processes on it, for tests that simulate an upgrade: write records with one
 * service, change the database as an older version left it, start the service again. Registers its own
 * beforeAll/afterAll (call it inside a `describe`). The log sequences and signs quickly, so backfilled entries
 * are integrated within the test.
 */
export function upgradeRig(name: string): {
  adminToken: string;
  db: () => DbProcess;
  start: () => Promise<ServiceProcess>;
  stop: (service: ServiceProcess) => Promise<void>;
} {
  let db: DbProcess;
  let dataDir: string;
  const services: ServiceProcess[] = [];
  const adminToken = `${name}-admin-${process.pid}-token`;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `veritrail-${name}-`));
    fs.chmodSync(dataDir, 0o755); // as root, the cluster runs as the postgres user, who must reach it
    db = await startDbProcess(path.join(dataDir, 'db'));
  });
  afterAll(async () => {
    for (const service of services.splice(0)) {
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGTERM');
      await service.exited;
    }
    await db?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    adminToken,
    db: () => db,
    start: async () => {
      const service = await startService({
        dataDir,
        env: { DATABASE_URL: db.url, ADMIN_TOKEN: adminToken, LOG_SEQUENCE_INTERVAL_MS: '20', LOG_CHECKPOINT_INTERVAL_MS: '100' },
      });
      services.push(service);
      const ready = await service.ready();
      expect({ ready, output: ready ? '' : service.output() }).toEqual({ ready: true, output: '' });
      return service;
    },
    stop: async (service) => {
      service.child.kill('SIGTERM');
      await service.exited;
    },
  };
}
