import { Injectable, OnModuleInit } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { NotFoundError } from '../../common/errors/app-error';
import { EvidenceLog, LogAppend, LogRef } from '../evidence-log/evidence-log.module';
import { toMomentResponse, TrailMomentResponse } from './dto/trail.response';
import { GetTrailMomentQuery } from './queries/get-trail-moment/get-trail-moment.query';
import { TrailStateReader } from './read-model/trail-state.reader';

/**
 * What a writer queues for a record whose log entry is a trail's moment: the trail's id and the moment's number
 * (`trail_id`), and the names at the time of writing. The entry is rendered by id, so a flow renamed between the
 * write and the sequencer's round is still logged (under its new name); references queued before ids were
 * (no `trail_id`) are rendered by name.
 */
export interface MomentLogRef {
  org: string;
  flow: string;
  trail: string;
  moment: number;
  trail_id?: string;
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
    private readonly reader: TrailStateReader,
  ) {}

  onModuleInit(): void {
    for (const kind of ['trail', 'artifact']) this.evidenceLog.registerRenderer(kind, (refs) => this.render(kind, refs));
  }

  private async render(kind: string, refs: LogRef[]): Promise<LogAppend[]> {
    const out: LogAppend[] = [];
    for (const { orgId, id, ref, queuedAt } of refs) {
      const r = ref as unknown as MomentLogRef;
      try {
        const { record, flow, trail } = r.trail_id ? await this.byId(orgId, r.trail_id, r.moment) : await this.byName(orgId, r);
        out.push({ orgId, org: r.org, kind, id, record, recordedAt: queuedAt.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'), locators: { flow, trail, moment: r.moment } });
      } catch (error) {
        // Gone meanwhile (or, for a reference by name, renamed): left out (the sequencer says so); anything else retries the round.
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    return out;
  }

  /** The moment route's answer, for the trail by id (what the route builds once it has resolved the names). */
  private async byId(orgId: string, trailId: string, moment: number): Promise<{ record: TrailMomentResponse; flow: string; trail: string }> {
    const at = await this.reader.readByIdAt(orgId, trailId, { kind: 'number', number: moment });
    if (!at.moment) throw new NotFoundError(`Moment ${moment} not found in trail '${at.trail.name}'`);
    return { record: toMomentResponse(at.moment, at.state!), flow: at.trail.flow_name, trail: at.trail.name };
  }

  private async byName(orgId: string, r: MomentLogRef): Promise<{ record: TrailMomentResponse; flow: string; trail: string }> {
    const record: TrailMomentResponse = await this.queryBus.execute(
      new GetTrailMomentQuery({ orgId, orgName: r.org, flowName: r.flow, trailName: r.trail, expression: String(r.moment) }),
    );
    return { record, flow: r.flow, trail: r.trail };
  }
}
