import type { TrailEvent } from '../domain/trail-state';

/** One trail moment as the read model reads it, with the attestation or artifact it recorded. */
export interface MomentEventRow {
  moment_number: number;
  ts: number;
  kind: string;
  subject_id: string | null;
  attestation_id: string | null;
  name: string | null;
  artifact_name: string | null;
  attestation_type: string | null;
  is_compliant: boolean | null;
  att_commit: Record<string, unknown> | null;
  fingerprint: string | null;
  filename: string | null;
  template_reference_name: string | null;
  art_commit: Record<string, unknown> | null;
}

/** A moment as GET trail's `events` shows it (the names the reference and the CLI use). */
export function toTrailEvent(r: MomentEventRow): TrailEvent {
  const base = { moment_number: r.moment_number, timestamp: Number(r.ts) };
  switch (r.kind) {
    case 'trail_begun':
      return { ...base, type: 'trail_reported' };
    case 'trail_updated':
      return { ...base, type: 'trail_updated' };
    case 'template_changed':
      return { ...base, type: 'trail_template_changed', template_id: r.subject_id };
    case 'artifact':
      return {
        ...base,
        type: 'artifact_creation_reported',
        artifact_id: r.subject_id,
        artifact_fingerprint: r.fingerprint,
        artifact_name: r.filename,
        template_reference_name: r.template_reference_name,
        git_commit_info: r.art_commit,
      };
    default:
      return {
        ...base,
        type: r.artifact_name ? 'artifact_attestation_reported' : 'trail_attestation_reported',
        attestation_id: r.attestation_id,
        attestation_type: r.attestation_type,
        template_reference_name: r.name,
        ...(r.artifact_name ? { target_artifact: r.artifact_name } : {}),
        is_compliant: r.is_compliant,
        git_commit_info: r.att_commit,
      };
  }
}
