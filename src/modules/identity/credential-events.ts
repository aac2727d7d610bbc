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
/** The orgs a user is a member of (the organizations module owns memberships and registers this). */
export interface UserMemberships {
  orgsOf(manager: EntityManager, userId: string): Promise<Array<{ orgId: string; orgName: string }>>;
}

@Injectable()
export class CredentialEvents {
  private memberships: UserMemberships | null = null;

  constructor(
    private readonly events: CredentialEventRepository,
    private readonly evidenceLog: EvidenceLog,
  ) {}

  registerMemberships(memberships: UserMemberships): void {
    if (this.memberships) throw new Error('user memberships are registered twice');
    this.memberships = memberships;
  }

  /**
   * A key event, recorded in the org of the route; a personal key's also in every other org its user is a member
   * of, since the key acts in each: every key that can write in an org is in that org's log.
   */
  async recordKeyEvent(manager: EntityManager, org: { orgId: string; orgName: string }, holder: KeyHolder, event: CredentialEventInput, at: Date): Promise<CredentialEventResponse> {
    if (holder.kind === 'caller' && holder.principal.kind === 'user') return this.recordForUser(manager, holder.principal.id, org, event, at);
    return this.record(manager, org, event, at);
  }

  /** `record` in `org` and in every other org the user is a member of (the answer is the event of `org`). */
  async recordForUser(manager: EntityManager, userId: string, org: { orgId: string; orgName: string }, event: CredentialEventInput, at: Date): Promise<CredentialEventResponse> {
    if (!this.memberships) throw new Error('no module registered user memberships (OrganizationsModule)');
    const stored = await this.record(manager, org, event, at);
    for (const other of await this.memberships.orgsOf(manager, userId)) {
      if (other.orgId !== org.orgId) await this.record(manager, other, event, at);
    }
    return stored;
  }

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
