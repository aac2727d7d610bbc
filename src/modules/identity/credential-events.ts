import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { EvidenceLog } from '../evidence-log/evidence-log.module';
import { CredentialEventResponse } from './dto/credential-event.response';
import type { KeyHolder } from './key-holders';
import { CredentialEventRepository } from './persistence/credential-event.repository';

export type CredentialEventInput = Omit<CredentialEventResponse, 'id' | 'recorded_at' | 'service_account' | 'user' | 'privilege' | 'description' | 'key' | 'replaced_key'> &
  Partial<Pick<CredentialEventResponse, 'service_account' | 'user' | 'privilege' | 'description' | 'key' | 'replaced_key'>>;

/**
 * Records a change of who may write in an org (service accounts, API keys) in the writer's transaction: a
 * `credential_events` row and its evidence-log entry (kind `credential_event`, id the event id), over what
 * `GET /credential-events/{org}/{event_id}` answers. Public metadata only: a key's value never reaches it.
 */
@Injectable()
export class CredentialEvents {
  constructor(
    private readonly events: CredentialEventRepository,
    private readonly evidenceLog: EvidenceLog,
  ) {}

  async record(manager: EntityManager, org: { orgId: string; orgName: string }, event: CredentialEventInput, at: Date): Promise<CredentialEventResponse> {
    const record: CredentialEventResponse = {
      id: randomUUID(),
      type: event.type,
      service_account: event.service_account ?? null,
      user: event.user ?? null,
      privilege: event.privilege ?? null,
      description: event.description ?? null,
      key: event.key ?? null,
      replaced_key: event.replaced_key ?? null,
      actor: event.actor,
      recorded_at: at.getTime() / 1000,
    };
    const stored = await this.events.insert(manager, org.orgId, record, at);
    await this.evidenceLog.append(manager, {
      orgId: org.orgId,
      org: org.orgName,
      kind: 'credential_event',
      id: stored.id,
      record: stored,
      recordedAt: at,
    });
    return stored;
  }
}

/** Whose key a key event is about: a service account (by name) or a user (as principals are named). */
export function keyEventSubject(holder: KeyHolder): { service_account: string | null; user: string | null } {
  return holder.kind === 'service_account' ? { service_account: holder.name, user: null } : { service_account: null, user: holder.principal.name };
}
