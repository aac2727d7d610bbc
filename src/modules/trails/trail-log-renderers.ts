import { Injectable, OnModuleInit } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { NotFoundError } from '../../common/errors/app-error';
import { EvidenceLog, LogAppend, LogRef } from '../evidence-log/evidence-log.module';
import { GetTrailMomentQuery } from './queries/get-trail-moment/get-trail-moment.query';

/** What a writer queues for a record whose log entry is a trail's moment: `{org, flow, trail, moment}` names. */
export interface MomentLogRef {
  org: string;
  flow: string;
  trail: string;
  moment: number;
}

/**
 * The evidence log entries of records read through a trail's moment, `GET /trails/{org}/{flow}/{trail}/moments/{n}`
 * (the trail as of that moment, which never changes afterwards): kind `trail` (a trail begun or updated: id
 * `<trail id>@<moment>`) and kind `artifact` (an artifact report: id the artifact's id, the moment it made).
 */
@Injectable()
export class TrailLogRenderers implements OnModuleInit {
  constructor(
    private readonly evidenceLog: EvidenceLog,
    private readonly queryBus: QueryBus,
  ) {}

  onModuleInit(): void {
    for (const kind of ['trail', 'artifact']) this.evidenceLog.registerRenderer(kind, (refs) => this.render(kind, refs));
  }

  private async render(kind: string, refs: LogRef[]): Promise<LogAppend[]> {
    const out: LogAppend[] = [];
    for (const { orgId, id, ref, queuedAt } of refs) {
      const r = ref as unknown as MomentLogRef;
      try {
        const record = await this.queryBus.execute(
          new GetTrailMomentQuery({ orgId, orgName: r.org, flowName: r.flow, trailName: r.trail, expression: String(r.moment) }),
        );
        out.push({ orgId, org: r.org, kind, id, record, recordedAt: queuedAt.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'), locators: { flow: r.flow, trail: r.trail, moment: r.moment } });
      } catch (error) {
        // Renamed meanwhile: left out (the sequencer says so); anything else retries the round.
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    return out;
  }
}
