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
  /** RFC 3339 UTC with microseconds (the record's own creation time). */
  recordedAt: string;
  locators?: LogEntryLocators;
}

/**
 * Builds the entries of records a writer queued by reference (`EvidenceLogSql.queue`): given record ids of
 * one kind, answers what `append` would have been given for each (a record not found is left out). Runs on
 * the manager it is given (the sequencer's transaction, or a plain reader for `lookup`).
 */
export type LogRenderer = (manager: EntityManager, ids: string[]) => Promise<LogAppend[]>;

/** An entry built from what a writer gave: its leaf text and hash. */
export function buildEntry(item: LogAppend): { leaf: string; leafHash: Buffer } {
  const entry = buildLogEntry({ kind: item.kind, org: item.org, id: item.id, recordedAt: item.recordedAt, record: item.record, locators: item.locators });
  return { leaf: entry.leaf, leafHash: entry.leafHash };
}

/**
 * The evidence log's write facade. A writer calls `append` inside its own transaction: the entry is queued
 * there (one insert, no lock), so it commits with the record or not at all, and the sequencer (LogSequencer)
 * gives it the next index of its org's log soon after the commit. A hot statement may instead queue its
 * records by reference with `EvidenceLogSql.queue` and register a renderer for their kind.
 */
@Injectable()
export class EvidenceLog {
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

  /** Declares how entries of `kind` queued by reference are built (once per process, at module init). */
  register(kind: string, renderer: LogRenderer): void {
    this.renderers.set(kind, renderer);
  }

  renderer(kind: string): LogRenderer | undefined {
    return this.renderers.get(kind);
  }
}
