import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { FlowDirectory } from '../flows/flows.module';
import {
  LockedTrail,
  MomentEntry,
  MomentKind,
  PinnedOrMissing,
  RecordedMoment,
  TrailField,
  TrailName,
  TrailRepository,
} from './persistence/trail.repository';

export interface EnsuredTrail extends LockedTrail {
  created: boolean;
}

export interface TrailAddress {
  orgId: string;
  flowName: string;
  trailName: string;
  /** reported_by / created_by of anything created on the way */
  actor: string;
}

/**
 * The ledger's public surface: trails and their numbered moments, the append-only log every evidence writer
 * (trails, artifacts, attestations, decisions) adds to. Every method runs in the caller's transaction; a
 * locked trail stays locked until it commits, so the moments of one trail are numbered 1, 2, 3 ... without
 * gaps or races. Lock order of every writer: trail rows (by name within a flow, or by id in the one-statement
 * group, which takes each trail's flow FOR KEY SHARE with it), then repo rows, then flow rows and counters. A
 * statement adding moments holds their flows FOR KEY SHARE until commit (the archived-flow trigger), which only
 * an archive (FOR UPDATE, nothing else) and a rename (the name is a key) wait for.
 */
@Injectable()
export class TrailLedger {
  constructor(
    private readonly trails: TrailRepository,
    private readonly flows: FlowDirectory,
  ) {}

  /**
   * Finds or creates the flow (without template) and the trail, and locks the trail row. A new trail takes
   * the flow's current template and records moment 1 (`trail_begun`).
   */
  async ensureTrail(manager: EntityManager, address: TrailAddress): Promise<EnsuredTrail> {
    // Fast path (the common case for ingest): one round trip.
    const existing = await this.trails.lockByName(manager, address.orgId, address.flowName, address.trailName);
    if (existing) return { ...existing, created: false };

    const flow = await this.flows.ensureFlow(manager, address.orgId, address.flowName, address.actor);
    const trailId = await this.trails.insertIfAbsent(manager, {
      orgId: address.orgId,
      flowId: flow.id,
      name: address.trailName,
      templateId: flow.templateId,
      actor: address.actor,
    });
    if (trailId) {
      await this.trails.recordMoments(manager, 'trail_begun', [{ trailId, subjectId: null }]);
      return { flowId: flow.id, trailId, templateId: flow.templateId, created: true };
    }
    // Another transaction created it concurrently (ON CONFLICT waited for its commit): lock it now.
    const raced = await this.trails.lockByName(manager, address.orgId, address.flowName, address.trailName);
    if (!raced) throw new Error(`trail ${address.flowName}/${address.trailName} vanished after a conflicting insert`);
    return { ...raced, created: false };
  }

  /**
   * ensureTrail for several trails of one flow: the existing ones are locked in one statement (name order),
   * the missing ones created one by one.
   */
  async ensureTrails(manager: EntityManager, address: Omit<TrailAddress, 'trailName'>, names: string[]): Promise<Map<string, EnsuredTrail>> {
    const sorted = [...new Set(names)].sort();
    const locked = await this.trails.lockManyByName(manager, address.orgId, address.flowName, sorted);
    const out = new Map<string, EnsuredTrail>();
    for (const name of sorted) {
      const found = locked.get(name);
      out.set(name, found ? { ...found, created: false } : await this.ensureTrail(manager, { ...address, trailName: name }));
    }
    return out;
  }

  /**
   * Pins named trails at one instant, in the caller's transaction: each existing trail is share-locked until it
   * commits and the instant is read after the locks, so `@{instant}` resolves every trail to exactly the moment
   * returned, whatever writes race with it. Missing flows and trails are reported in request order.
   */
  pinAt(manager: EntityManager, orgId: string, names: TrailName[]): Promise<{ instant: string; trails: PinnedOrMissing[] }> {
    return this.trails.pin(manager, orgId, names);
  }

  /** Finds (without locking) a trail of a named flow, with its last moment, or what is missing. */
  find(manager: EntityManager, orgId: string, name: TrailName): Promise<PinnedOrMissing> {
    return this.trails.find(manager, orgId, name);
  }

  /** Locks the trail `name` of a known flow, or null. */
  lockTrailInFlow(manager: EntityManager, flowId: string, name: string): Promise<LockedTrail | null> {
    return this.trails.lockInFlow(manager, flowId, name);
  }

  /** Creates a trail in a known flow with the fields given (locked, no moment yet), or null if it exists. */
  insertTrail(
    manager: EntityManager,
    trail: { orgId: string; flowId: string; name: string; templateId: string | null; actor: string; fields: TrailField[] },
  ): Promise<string | null> {
    return this.trails.insertIfAbsent(manager, trail);
  }

  /** Sets the fields given on a locked trail; true when any value changed (the caller records the moment). */
  updateTrail(manager: EntityManager, trailId: string, fields: TrailField[]): Promise<boolean> {
    return this.trails.updateFields(manager, trailId, fields);
  }

  /** Sets the template a locked trail is evaluated against from its next moment on. */
  setTrailTemplate(manager: EntityManager, trailId: string, templateId: string): Promise<void> {
    return this.trails.setTemplate(manager, trailId, templateId);
  }

  /** Adds the next moment of a locked trail. */
  async recordMoment(manager: EntityManager, trailId: string, kind: MomentKind, subjectId: string | null): Promise<RecordedMoment> {
    const [moment] = await this.trails.recordMoments(manager, kind, [{ trailId, subjectId }]);
    return moment;
  }

  /** One moment of `kind` per entry (entry order within a trail), for locked trails, in one statement. */
  recordMoments(manager: EntityManager, kind: MomentKind, entries: MomentEntry[]): Promise<RecordedMoment[]> {
    return this.trails.recordMoments(manager, kind, entries);
  }
}
