import { Injectable, OnModuleInit } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { NotFoundError } from '../../common/errors/app-error';
import { EvidenceLog, LogAppend, LogRef } from '../evidence-log/evidence-log.module';
import { EnvironmentRepository } from './persistence/environment.repository';
import { GetSnapshotQuery } from './queries/get-snapshot/get-snapshot.query';

/**
 * The evidence log entry of an environment snapshot (kind `environment_snapshot`, id `<environment id>#<number>`):
 * its record is `GET /snapshots/{org}/{env}/{number}`'s answer. The writer queues `{org, environment, snapshot}`;
 * the environment is found by the id in the entry's id, so one renamed between the write and the sequencer's
 * round is still logged, under its new name.
 */
@Injectable()
export class SnapshotLogRenderer implements OnModuleInit {
  constructor(
    private readonly evidenceLog: EvidenceLog,
    private readonly queryBus: QueryBus,
    private readonly environments: EnvironmentRepository,
  ) {}

  onModuleInit(): void {
    this.evidenceLog.registerRenderer('environment_snapshot', (refs) => this.render(refs));
  }

  private async render(refs: LogRef[]): Promise<LogAppend[]> {
    const out: LogAppend[] = [];
    for (const { orgId, id, ref, queuedAt } of refs) {
      const r = ref as { org: string; environment: string; snapshot: number };
      try {
        const envName = (await this.environments.nameOf(orgId, id.slice(0, id.lastIndexOf('#')))) ?? r.environment;
        const record = await this.queryBus.execute(new GetSnapshotQuery({ orgId, orgName: r.org, envName, expression: String(r.snapshot) }));
        out.push({
          orgId,
          org: r.org,
          kind: 'environment_snapshot',
          id,
          record,
          recordedAt: queuedAt.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'),
          locators: { environment: envName },
        });
      } catch (error) {
        // Gone meanwhile: left out (the sequencer says so); anything else retries the round.
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    return out;
  }
}
