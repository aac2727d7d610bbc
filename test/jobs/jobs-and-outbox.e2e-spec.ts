import { randomUUID } from 'node:crypto';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { JobQueue } from '../../src/jobs/job-queue';
import { Outbox } from '../../src/modules/outbox/outbox.module';
import { createOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/** Jobs and outbox events exist if and only if the transaction that wrote them commits. */
describe('jobs and the outbox', () => {
  let t: TestApp;
  let jobs: JobQueue;
  let outbox: Outbox;
  let uow: UnitOfWork;
  let orgId: string;

  beforeAll(async () => {
    t = await startTestApp();
    jobs = t.app.get(JobQueue, { strict: false });
    outbox = t.app.get(Outbox, { strict: false });
    uow = t.app.get(UnitOfWork, { strict: false });
    const org = await createOrg(t);
    [{ id: orgId }] = await t.dataSource.query(`SELECT id FROM organizations WHERE name = $1`, [org.name]);
  });
  afterAll(() => t.close());

  class Rollback extends Error {}

  it('a job sent in a rolled-back transaction never runs; a committed one runs once', async () => {
    const queue = `test-${randomUUID()}`;
    const seen: string[] = [];
    let resolveSeen: () => void;
    const done = new Promise<void>((resolve) => (resolveSeen = resolve));
    await jobs.work<{ label: string }>(queue, {
      pollingIntervalSeconds: 0.5,
      handle: async (job) => {
        seen.push(job.data.label);
        if (job.data.label === 'last') resolveSeen();
      },
    });
    await expect(
      uow.run(async (manager) => {
        await jobs.sendIn(manager, queue, { label: 'rolled-back' });
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    await uow.run((manager) => jobs.sendIn(manager, queue, { label: 'committed' }));
    await jobs.send(queue, { label: 'last' });
    await Promise.race([done, new Promise((_, reject) => setTimeout(() => reject(new Error('jobs did not run within 20 s')), 20_000))]);
    expect(seen.sort()).toEqual(['committed', 'last']);
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1`, [queue]);
    expect(n).toBe(2);
  });

  it('events appended in a rolled-back transaction do not exist; committed ones are claimed once, in order', async () => {
    // Claim whatever other tests left, so this test sees only its own events.
    while ((await uow.run((manager) => outbox.claim(manager, 1000))).length);
    await expect(
      uow.run(async (manager) => {
        await outbox.append(manager, { orgId, type: 'test.rolled_back', subject: {}, payload: {} });
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    await uow.run((manager) =>
      outbox.append(
        manager,
        { orgId, type: 'test.first', subject: { flow: 'f' }, payload: { n: 1 } },
        { orgId, type: 'test.second', subject: { flow: 'f' }, payload: { n: 2 } },
      ),
    );
    // A consumer that fails puts its events back.
    await expect(
      uow.run(async (manager) => {
        expect((await outbox.claim(manager, 10)).map((e) => e.type)).toEqual(['test.first', 'test.second']);
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    const claimed = await uow.run((manager) => outbox.claim(manager, 10));
    expect(claimed.map((e) => [e.type, e.payload])).toEqual([
      ['test.first', { n: 1 }],
      ['test.second', { n: 2 }],
    ]);
    expect(await uow.run((manager) => outbox.claim(manager, 10))).toEqual([]);
  });
});
