import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../common/config/app-config';
import { JobQueue } from '../../../jobs/job-queue';
import { EvaluationRepository } from '../persistence/evaluation.repository';
import { EVALUATION_QUEUE, EvaluationRunner, leaseMsOf } from './evaluation-runner';

export interface EvaluationJob {
  orgId: string;
  id: string;
}

/** Raised when a job finds its evaluation held by a live runner: the job is tried again later. */
class StillRunning extends Error {}

/**
 * The recovery path. Every evaluation is stored with a job that becomes due after the accepting process's lease
 * would have run out; the job runs the evaluation if it is still pending (the process died), or ends at once.
 */
@Injectable()
export class EvaluationJobs implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly runner: EvaluationRunner,
    private readonly evaluations: EvaluationRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.work<EvaluationJob>(EVALUATION_QUEUE, {
      pollingIntervalSeconds: 2,
      handle: async ({ data }) => {
        if (await this.runner.run(data.orgId, data.id)) return;
        const row = await this.evaluations.find(data.orgId, data.id);
        if (row?.status === 'pending') throw new StillRunning(`evaluation ${data.id} is held by a runner`);
      },
    });
  }

  /** The job options of a new evaluation's recovery job. */
  spec(id: string) {
    const leaseMs = leaseMsOf(this.config);
    return {
      id,
      startAfter: new Date(Date.now() + leaseMs),
      retryLimit: 20,
      retryDelaySeconds: Math.ceil(leaseMs / 1000 / 4),
      expireInSeconds: Math.ceil((leaseMs * 2) / 1000),
    };
  }
}
