import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { JsonLogger } from '../../../common/logging/json-logger';
import { StoredOutboxEvent } from '../../outbox/outbox.module';
import { TrailStateReader } from '../../trails/trails.module';
import { complianceTrigger } from '../domain/trail-compliance';
import { TrailStatusRepository } from '../persistence/trail-status.repository';

export interface ComplianceChange {
  trigger: 'ON_COMPLIANT_TRAIL' | 'ON_NON_COMPLIANT_TRAIL';
  status: string;
  previous: string | null;
  momentNumber: number;
}

/**
 * Detects trail compliance changes off the ingest path: for an `attestation.recorded` event of a flow some
 * action watches, the trail's status at the attestation's moment (TrailStateReader, the trails module's read
 * side) is compared with the last status seen for that trail, or the first time with its status at the moment
 * before. Statuses are read at the event's own moment, so events seen late or twice change nothing: an event
 * at or before the last moment seen is ignored.
 */
@Injectable()
export class ComplianceWatch {
  constructor(
    private readonly trails: TrailStateReader,
    private readonly statuses: TrailStatusRepository,
    private readonly logger: JsonLogger,
  ) {}

  async observe(manager: EntityManager, event: StoredOutboxEvent): Promise<ComplianceChange | null> {
    const flow = String(event.subject.flow ?? '');
    const trail = String(event.subject.trail ?? '');
    const momentNumber = Number(event.payload.moment_number);
    if (!flow || !trail || !Number.isInteger(momentNumber) || momentNumber < 1) return null;
    const status = await this.statusAt(event.orgId, flow, trail, momentNumber);
    if (!status) return null;
    const known = await this.statuses.lock(manager, event.orgId, status.trailId);
    if (known && known.moment_number >= momentNumber) return null;
    const previous = known ? known.status : momentNumber > 1 ? ((await this.statusAt(event.orgId, flow, trail, momentNumber - 1))?.status ?? null) : null;
    await this.statuses.save(manager, event.orgId, status.trailId, momentNumber, status.status);
    const trigger = complianceTrigger(previous, status.status);
    return trigger ? { trigger, status: status.status, previous, momentNumber } : null;
  }

  /**
   * The trail's status at a moment; null when the event names a trail or moment that does not exist (it then
   * fires no compliance trigger). Database errors are thrown: the relay's batch is retried.
   */
  private async statusAt(orgId: string, flow: string, trail: string, moment: number): Promise<{ trailId: string; status: string } | null> {
    try {
      const at = await this.trails.readAt(orgId, flow, trail, { kind: 'number', number: moment });
      return at.state ? { trailId: at.trail.id, status: at.state.compliance.status } : null;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.logger.warn('compliance watch: event names no trail moment', { flow, trail, moment, error: error.message });
      return null;
    }
  }
}
