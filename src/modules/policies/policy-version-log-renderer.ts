import { Injectable, OnModuleInit } from '@nestjs/common';
import { EvidenceLog, LogAppend, LogRef } from '../evidence-log/evidence-log.module';
import { PolicyRepository } from './persistence/policy.repository';

/**
 * Entries of policy versions queued by reference (`{org, policy, version}`): the versions stored before they
 * were logged, queued by the backfill migration 1764110200000. A new version is appended by its writer.
 */
@Injectable()
export class PolicyVersionLogRenderer implements OnModuleInit {
  constructor(
    private readonly evidenceLog: EvidenceLog,
    private readonly policies: PolicyRepository,
  ) {}

  onModuleInit(): void {
    this.evidenceLog.registerRenderer('policy_version', (refs) => this.render(refs));
  }

  private async render(refs: LogRef[]): Promise<LogAppend[]> {
    const out: LogAppend[] = [];
    for (const { orgId, id, ref } of refs) {
      const r = ref as { org: string; policy: string; version: number };
      const record = await this.policies.version(orgId, r.policy, r.version);
      if (!record) continue; // not found: left out
      out.push({ orgId, org: r.org, kind: 'policy_version', id, record, recordedAt: new Date(Math.round(record.timestamp * 1e6) / 1e3) });
    }
    return out;
  }
}
