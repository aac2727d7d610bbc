import { LOGICAL } from '../types/environment-type';
import { EnvironmentRow } from '../persistence/environment.reader';

/**
 * An environment as `GET /environments/{org}/{env}` and the list show it. `tags` is always an object and
 * `policies` an array (the CLI reads both with strict types); `state` is the compliance of the latest snapshot
 * (of every member's latest snapshot, for a logical environment), null when there is none.
 */
export interface EnvironmentResponse {
  org: string;
  name: string;
  type: string;
  description: string;
  include_scaling: boolean;
  require_provenance: boolean;
  state: boolean | null;
  last_reported_at: number | null;
  last_modified_at: number;
  /** When the latest snapshot was taken. */
  last_changed_at: number | null;
  /** The latest snapshot's number; 0 before the first report. */
  last_snapshot: number;
  tags: Record<string, string>;
  policies: string[];
  /** A logical environment's members; [] for a physical one. */
  included_environments: string[];
  created_by: string;
  created_at: number;
  html_url: string;
  archived: boolean;
  archived_at: number | null;
  /** Renames, oldest first: the names it had, who renamed it and when. */
  history: Array<{ event: 'renamed'; from: string; to: string; by: string; timestamp: number }>;
}

export function environmentUrl(base: string, org: string, env: string): string {
  return `${base}/${encodeURIComponent(org)}/environments/${encodeURIComponent(env)}`;
}

/** A logical environment's compliance: false if any member's latest snapshot is not compliant, null if none has one. */
export function logicalState(members: EnvironmentRow['members']): boolean | null {
  const known = members.filter((m) => m.compliant !== null);
  return known.length ? known.every((m) => m.compliant) : null;
}

const latest = (values: Array<number | null>): number | null => values.reduce<number | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null);

export function toEnvironmentResponse(row: EnvironmentRow, org: string, base: string): EnvironmentResponse {
  const logical = row.type === LOGICAL;
  return {
    org,
    name: row.name,
    type: row.type,
    description: row.description,
    include_scaling: row.include_scaling,
    require_provenance: row.require_provenance,
    state: logical ? logicalState(row.members) : row.compliant,
    last_reported_at: logical ? latest(row.members.map((m) => m.last_reported_at)) : row.last_reported_at,
    last_modified_at: row.last_modified_at,
    last_changed_at: logical ? latest(row.members.map((m) => m.last_snapshot_at)) : row.last_snapshot_at,
    last_snapshot: row.last_snapshot,
    tags: row.tags ?? {},
    policies: row.policies ?? [],
    included_environments: row.members.map((m) => m.name),
    created_by: row.created_by,
    created_at: row.created_at,
    html_url: environmentUrl(base, org, row.name),
    archived: row.archived_at !== null,
    archived_at: row.archived_at,
    history: (row.renames ?? []).map((r) => ({ event: 'renamed' as const, from: r.from, to: r.to, by: r.by, timestamp: Number(r.timestamp) })),
  };
}
