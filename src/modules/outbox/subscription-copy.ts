import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OutboxEventRepository } from './persistence/outbox-event.repository';

/** Who subscribes to what, as read at one version. */
export class SubscriptionSnapshot {
  constructor(
    readonly version: string,
    private readonly types: Map<string, Set<string>>,
  ) {}

  wants(orgId: string, type: string): boolean {
    return this.types.get(orgId)?.has(type) ?? false;
  }
}

/**
 * This process's copy of the outbox subscriptions, for a hot path that wants to leave the event part out of
 * its statement when nobody wants its events. The copy may be stale: such a statement must also check
 * `OutboxSql.unchangedSince(snapshot.version)`, and write nothing when the version moved on; its caller then
 * calls `refresh` and takes a path that checks subscriptions in SQL.
 */
@Injectable()
export class SubscriptionCopy {
  private current: Promise<SubscriptionSnapshot> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly events: OutboxEventRepository,
  ) {}

  snapshot(): Promise<SubscriptionSnapshot> {
    this.current ??= this.load();
    return this.current;
  }

  /** Reloads the copy if the subscriptions changed since it was read. */
  async refresh(): Promise<void> {
    const held = this.current ? await this.current.catch(() => null) : null;
    const version = await this.events.subscriptionVersion(this.dataSource.manager);
    if (!held || held.version !== version) this.current = this.load();
    await this.current;
  }

  private load(): Promise<SubscriptionSnapshot> {
    const loading = this.events.subscriptions(this.dataSource.manager).then(({ version, rows }) => {
      const types = new Map<string, Set<string>>();
      for (const row of rows) {
        let set = types.get(row.org_id);
        if (!set) types.set(row.org_id, (set = new Set()));
        set.add(row.event_type);
      }
      return new SubscriptionSnapshot(version, types);
    });
    // A failed load is not kept: the next caller tries again.
    loading.catch(() => {
      if (this.current === loading) this.current = null;
    });
    return loading;
  }
}
