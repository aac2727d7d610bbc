import type { SnapshotEvent } from './snapshot-events';

/** Kinds of entry in an environment's event log (the reference's, plus the environment's compliance and renames). */
export const LOG_EVENT_TYPES = ['started', 'exited', 'changed', 'compliance_changed', 'renamed'] as const;
export type LogEventType = (typeof LOG_EVENT_TYPES)[number];

/** One entry of the log, as stored (the snapshot, time and sequence are added by the writer). */
export interface LogEntry {
  type: LogEventType;
  artifactName: string;
  fingerprint: string;
  description: string;
  artifactCompliance: boolean | null;
  snapshotCompliance: boolean;
}

const instances = (n: number) => `${n} instance${n === 1 ? '' : 's'}`;

/**
 * The log entries of one new snapshot, from its outbox events (same order): an artifact that started, exited
 * or changed its instance count (only in environments that include scaling, as for the events), and the
 * environment's compliance when it changed.
 */
export function logEntries(events: readonly SnapshotEvent[]): LogEntry[] {
  const created = events.find((e) => e.type === 'snapshot.created');
  const snapshotCompliance = Boolean(created?.payload.compliant);
  const entries: LogEntry[] = [];
  for (const e of events) {
    const p = e.payload as Record<string, any>;
    const artifact = { artifactName: String(p.artifact_name ?? ''), fingerprint: String(p.fingerprint ?? ''), snapshotCompliance };
    switch (e.type) {
      case 'artifact.started':
        entries.push({ ...artifact, type: 'started', description: `${instances(p.instance_count)} started`, artifactCompliance: p.compliant });
        break;
      case 'artifact.exited':
        entries.push({ ...artifact, type: 'exited', description: `${instances(p.instance_count)} exited`, artifactCompliance: p.compliant });
        break;
      case 'artifact.scaled':
        entries.push({ ...artifact, type: 'changed', description: `instances changed from ${p.was} to ${p.now}`, artifactCompliance: p.compliant });
        break;
      case 'environment.compliance_changed':
        entries.push({
          type: 'compliance_changed',
          artifactName: '',
          fingerprint: '',
          description: p.compliant ? 'environment became compliant' : 'environment became non-compliant',
          artifactCompliance: null,
          snapshotCompliance,
        });
        break;
      default:
        break;
    }
  }
  return entries;
}
