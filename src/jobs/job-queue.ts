import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import PgBoss from 'pg-boss';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../common/config/app-config';
import { JsonLogger } from '../common/logging/json-logger';

export interface JobSpec {
  /** retries after the first try (default 0) */
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** a job still active this long after it started is failed and retried (default 15 min) */
  expireInSeconds?: number;
  /** the job's id (a UUID): sending the same id twice makes one job */
  id?: string;
  startAfter?: Date;
}

export interface JobWorker<T> {
  /** jobs fetched at once */
  batchSize?: number;
  /** how often an idle worker looks for new jobs (pg-boss polls; at least 0.5 s) */
  pollingIntervalSeconds?: number;
  handle(job: { id: string; data: T }): Promise<void>;
}

/**
 * Jobs in PostgreSQL through pg-boss (schema `pgboss`, installed by migration 1763774000000). It runs on the
 * service's own connection pool, and a job can be sent inside a transaction (`sendIn`), so that a job exists if
 * and only if the change that asked for it committed. Started on first use (a start that fails is tried again by
 * the next use); workers run only in processes whose ROLE is `worker` or `all`.
 */
@Injectable()
export class JobQueue implements OnApplicationShutdown {
  private boss: PgBoss | null = null;
  private starting: Promise<PgBoss> | null = null;
  private readonly queues = new Set<string>();
  private readonly worked = new Set<string>();
  /** Jobs this process is running now: shutdown waits for them. */
  private readonly active = new Set<Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly logger: JsonLogger,
  ) {}

  /** Whether this process runs workers (ROLE worker or all). */
  get runsWorkers(): boolean {
    return this.config.role !== 'api';
  }

  /** Sends a job outside any transaction. */
  async send<T extends object>(queue: string, data: T, spec: JobSpec = {}): Promise<string | null> {
    const boss = await this.ready(queue);
    return boss.send(queue, data, options(spec));
  }

  /** Sends a job in the caller's transaction: it exists only if that transaction commits. */
  async sendIn<T extends object>(manager: EntityManager, queue: string, data: T, spec: JobSpec = {}): Promise<string | null> {
    const boss = await this.ready(queue);
    return boss.send(queue, data, { ...options(spec), db: transactionDb(manager) });
  }

  /** Sends several jobs of one queue in the caller's transaction, in one statement. */
  async sendManyIn<T extends object>(manager: EntityManager, queue: string, jobs: Array<{ data: T; spec?: JobSpec }>): Promise<void> {
    if (!jobs.length) return;
    const boss = await this.ready(queue);
    await boss.insert(
      jobs.map(({ data, spec = {} }) => ({ name: queue, data, ...insertOptions(spec) })),
      { db: transactionDb(manager) },
    );
  }

  /** Deletes a job in the caller's transaction: gone only if that transaction commits. */
  async deleteIn(manager: EntityManager, queue: string, id: string): Promise<void> {
    const boss = await this.ready(queue);
    await boss.deleteJob(queue, id, { db: transactionDb(manager) });
  }

  /** Registers a worker for `queue` (no-op in an api-only process). */
  async work<T extends object>(queue: string, worker: JobWorker<T>): Promise<void> {
    if (!this.runsWorkers) return;
    const boss = await this.ready(queue);
    await boss.work<T>(
      queue,
      { batchSize: worker.batchSize ?? 1, pollingIntervalSeconds: worker.pollingIntervalSeconds ?? 2 },
      async (jobs) => {
        for (const job of jobs) {
          const run = worker.handle({ id: job.id, data: job.data });
          this.active.add(run);
          try {
            await run;
          } finally {
            this.active.delete(run);
          }
        }
      },
    );
    this.worked.add(queue);
  }

  /** Jobs being run by this process right now. */
  get activeJobs(): number {
    return this.active.size;
  }

  async onApplicationShutdown(): Promise<void> {
    const boss = this.boss ?? (this.starting ? await this.starting.catch(() => null) : null);
    if (!boss) return;
    // No new jobs are fetched; the jobs in hand are finished, for up to SHUTDOWN_GRACE_MS; a job still running
    // then is handed back as failed, to be retried (every job here is written to be run again safely). The wait
    // is ours, on the jobs themselves: pg-boss's graceful stop checks every 500 ms and waited out its whole
    // timeout when a worker was between polls. The pool belongs to the DataSource: not closed here.
    for (const queue of this.worked) await boss.offWork(queue).catch(() => undefined);
    if (this.active.size) {
      this.logger.info('finishing running jobs', { jobs: this.active.size });
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.config.observability.shutdownGraceMs)));
      await Promise.race([Promise.allSettled([...this.active]), grace]);
      clearTimeout(timer);
      if (this.active.size) this.logger.warn('jobs handed back unfinished', { jobs: this.active.size });
    }
    await boss.stop({ graceful: false, wait: true, close: false } as PgBoss.StopOptions).catch(() => undefined);
  }

  private async ready(queue: string): Promise<PgBoss> {
    const boss = await this.start();
    if (!this.queues.has(queue)) {
      if (!(await boss.getQueue(queue))) await boss.createQueue(queue).catch(() => undefined);
      this.queues.add(queue);
    }
    return boss;
  }

  private start(): Promise<PgBoss> {
    if (this.boss) return Promise.resolve(this.boss);
    if (this.starting) return this.starting;
    const starting = (async () => {
      const pool = (this.dataSource.driver as unknown as { master: { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> } }).master;
      const boss = new PgBoss({
        db: { executeSql: (text, values) => pool.query(text, values) as Promise<{ rows: any[] }> },
        schema: 'pgboss',
        migrate: false,
        schedule: false,
        supervise: this.runsWorkers,
      });
      boss.on('error', (error) => this.logger.warn('job queue error', { error: (error as Error)?.message }));
      try {
        await boss.start();
      } catch (error) {
        await boss.stop({ graceful: false, wait: false, close: false } as PgBoss.StopOptions).catch(() => undefined);
        throw error;
      }
      this.boss = boss;
      return boss;
    })();
    // A failed start (the database briefly unreachable) is not kept: the next use tries again, instead of every
    // later send failing with the first error until the process restarts.
    this.starting = starting;
    starting.catch(() => {
      if (this.starting === starting) this.starting = null;
    });
    return starting;
  }
}

/** pg-boss's database handle on the caller's transaction. */
function transactionDb(manager: EntityManager): PgBoss.Db {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('JobQueue.sendIn needs a transactional EntityManager (UnitOfWork.run)');
  return { executeSql: async (text, values) => ({ rows: (await runner.query(text, values, true)).records }) };
}

/** The same options for `insert` (its field names differ from `send`'s). */
function insertOptions(spec: JobSpec): Omit<PgBoss.JobInsert, 'name' | 'data'> {
  const out: Omit<PgBoss.JobInsert, 'name' | 'data'> = { retryLimit: spec.retryLimit ?? 0, expireInSeconds: spec.expireInSeconds ?? 15 * 60 };
  if (spec.id !== undefined) out.id = spec.id;
  if (spec.retryDelaySeconds !== undefined) out.retryDelay = spec.retryDelaySeconds;
  if (spec.retryBackoff !== undefined) out.retryBackoff = spec.retryBackoff;
  if (spec.startAfter !== undefined) out.startAfter = spec.startAfter;
  return out;
}

function options(spec: JobSpec): PgBoss.SendOptions {
  const out: PgBoss.SendOptions = { retryLimit: spec.retryLimit ?? 0, expireInSeconds: spec.expireInSeconds ?? 15 * 60 };
  // pg-boss checks `'x' in options`: a key set to undefined fails its checks, so only set keys are passed.
  if (spec.id !== undefined) out.id = spec.id;
  if (spec.retryDelaySeconds !== undefined) out.retryDelay = spec.retryDelaySeconds;
  if (spec.retryBackoff !== undefined) out.retryBackoff = spec.retryBackoff;
  if (spec.startAfter !== undefined) out.startAfter = spec.startAfter;
  return out;
}
