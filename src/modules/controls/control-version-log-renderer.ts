import { Injectable, OnModuleInit } from '@nestjs/common';
import { EvidenceLog, LogAppend, LogRef } from '../evidence-log/evidence-log.module';
import { ControlRepository } from './persistence/control.repository';

/**
 * Entries of control versions queued by reference (`{org, identifier, version}`): the versions kept when
 * `control_versions` began (`change: "recorded"`), queued by the backfill migration 1764110200000. A new
 * version is appended by its writer.
 */
@Injectable()
export class ControlVersionLogRenderer implements OnModuleInit {
  constructor(
    private readonly evidenceLog: EvidenceLog,
    private readonly controls: ControlRepository,
  ) {}

  onModuleInit(): void {
    this.evidenceLog.registerRenderer('control_version', (refs) => this.render(refs));
  }

  private async render(refs: LogRef[]): Promise<LogAppend[]> {
    const out: LogAppend[] = [];
    for (const { orgId, id, ref } of refs) {
      const r = ref as { org: string; identifier: string; version: number };
      const record = await this.controls.version(orgId, r.identifier, r.version);
      if (!record) continue; // not found: left out
      out.push({ orgId, org: r.org, kind: 'control_version', id, record, recordedAt: new Date(Math.round(record.changed_at * 1e6) / 1e3) });
    }
    return out;
  }
}
