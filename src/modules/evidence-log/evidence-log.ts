import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { buildLogEntry, LogEntryLocators } from '../../../libs/transparency/src';
import { EvidenceLogRepository } from './persistence/evidence-log.repository';

export interface LogAppend {
  orgId: string;
  /** The org's name, as the leaf's `org` (and the checkpoint origin) names it. */
  org: string;
  /** The entry kind (README's kinds table), e.g. `attestation`. */
  kind: string;
  /** The record's id, unique per kind in the org (lookup finds it by kind and id). */
  id: string;
  /** The record as its read route returns it: record_sha256 is the SHA-256 of its RFC 8785 canonical JSON. */
  record: unknown;
  /** The record's own creation time: RFC 3339 UTC with microseconds, or a Date. */
  recordedAt: string | Date;
  locators?: LogEntryLocators;
}

/** An entry queued by reference (`appendRef`), as the renderer of its kind gets it once its record committed. */
export interface LogRef {
  orgId: string;
  id: string;
  ref: Record<string, unknown>;
  /** When the writing transaction began (the entry's `recorded_at` unless the renderer knows better). */
  queuedAt: Date;
}

/**
 * Builds the entries of records queued by reference, by reading each through its read route's own query
 * (committed data; the record's answer never changes afterwards). A record not found is left out.
 */
export type LogRenderer = (refs: LogRef[]) => Promise<LogAppend[]>;

/** A record a source found committed past its stream's position. */
export interface SourcedEntry {
  /** The stream (e.g. a flow id) whose positions number the records densely, in commit order. */
  stream: string;
  position: number;
  item: LogAppend;
}

/**
 * A kind whose records are their own queue (for a hot write path, which then pays nothing for the log): the
 * owning module numbers its records densely per stream, in commit order (e.g. attestations per flow under the
 * flow's counter), and the sequencer asks it for what committed past the positions it has integrated.
 */
export interface LogSource {
  /**
   * Records committed past `positions` (a stream not listed is at 0), as what `append` would be given, oldest
   * first, at most `limit`; for each stream a prefix of what follows its position.
   */
  next(manager: EntityManager, positions: Array<{ stream: string; position: number }>, limit: number): Promise<SourcedEntry[]>;
  /** What `append` would be given for these record ids (a record not found is left out); for `lookup`. */
  render(manager: EntityManager, ids: string[]): Promise<LogAppend[]>;
}

/** An entry built from what a writer gave: its leaf text and hash. */
export function buildEntry(item: LogAppend): { leaf: string; leafHash: Buffer } {
  const entry = buildLogEntry({ kind: item.kind, org: item.org, id: item.id, recordedAt: item.recordedAt, record: item.record, locators: item.locators });
  return { leaf: entry.leaf, leafHash: entry.leafHash };
}

/**
 * The evidence log's write facade. A writer calls `append` inside its own transaction: the entry is queued
 * there (one insert, no lock), so it commits with the record or not at all, and the sequencer (LogSequencer)
 * gives it the next index of its org's log soon after the commit. A hot write path may instead register its
 * kind as a `LogSource` (its records are their own queue).
 */
@Injectable()
export class EvidenceLog {
  private readonly sources = new Map<string, LogSource>();
  private readonly renderers = new Map<string, LogRenderer>();

  constructor(private readonly repository: EvidenceLogRepository) {}

  /**
   * Queues one entry per item, in order; items may belong to different orgs. The indexes are given by the
   * sequencer after commit, so every element of the answer is null (`GET /log/{org}/lookup` finds them).
   */
  async append(manager: EntityManager, items: LogAppend | LogAppend[]): Promise<Array<number | null>> {
    const list = Array.isArray(items) ? items : [items];
    await this.repository.queue(
      manager,
      list.map((item) => ({ orgId: item.orgId, kind: item.kind, recordId: item.id, ...buildEntry(item) })),
    );
    return list.map(() => null);
  }

  /**
   * For a writer whose change alters what is read under a name (a flow or environment renamed): holds off the
   * sequencer until the writer's transaction ends (rounds wait for it; it waits for a round in progress), so no
   * round renders a record while the change is half visible. Times the writer stamps after this call come after
   * every record a finished round rendered.
   */
  async holdSequencing(manager: EntityManager): Promise<void> {
    await this.repository.holdSequencing(manager);
  }

  /**
   * Queues one entry per item by reference, in the writer's transaction: `ref` is what the kind's renderer
   * (`registerRenderer`, by the module owning the record's read route) needs to read the record once
   * committed. For a record whose read shape the writer cannot build in its transaction.
   */
  async appendRef(manager: EntityManager, items: Array<{ orgId: string; kind: string; id: string; ref: Record<string, unknown> }>): Promise<void> {
    await this.repository.queue(
      manager,
      items.map((item) => ({ orgId: item.orgId, kind: item.kind, recordId: item.id, ref: item.ref })),
    );
  }

  /** Declares how entries of `kind` queued by reference are built (once per process, at module init). */
  registerRenderer(kind: string, renderer: LogRenderer): void {
    this.renderers.set(kind, renderer);
  }

  renderer(kind: string): LogRenderer | undefined {
    return this.renderers.get(kind);
  }

  /** Declares a kind whose records are their own queue (once per process, at module init). */
  registerSource(kind: string, source: LogSource): void {
    this.sources.set(kind, source);
  }

  source(kind: string): LogSource | undefined {
    return this.sources.get(kind);
  }

  /** The kinds with a source, and their sources. */
  allSources(): Array<[string, LogSource]> {
    return [...this.sources];
  }
}
