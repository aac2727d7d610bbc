import { ConflictError } from '../../../common/errors/app-error';
import { artifactStatusOf, ArtifactStatus, Slot, TrailStatus } from '../domain/compliance';
import { ArtifactRecord, MomentRecord, TrailEvent, TrailRecord, TrailState } from '../domain/trail-state';

/** One entry of `attestations_statuses` in GET trail (the reference's shape). */
export interface SlotStatusResponse {
  attestation_name: string;
  attestation_type: string | null;
  attestation_id: string | null;
  /** When the slot's verdict is an override: the attestation it overrides. */
  overridden_attestation_id: string | null;
  status: 'MISSING' | 'COMPLETE';
  is_compliant: boolean | null;
  unexpected: boolean;
  /** A type that judges its evidence adds its typed fields under its name (`junit`, `snyk`...), and why not compliant. */
  [typedFields: string]: unknown;
}

export interface ArtifactStatusResponse {
  artifact_fingerprint: string | null;
  artifact_id: string | null;
  artifact_filename: string | null;
  status: ArtifactStatus;
  is_compliant: boolean;
  attestations_statuses: SlotStatusResponse[];
  unexpected: boolean;
  evaluated_at: number;
  flow_template_id: string | null;
}

export interface ComplianceStatusResponse {
  status: TrailStatus;
  is_compliant: boolean;
  attestations_statuses: SlotStatusResponse[];
  artifacts_statuses: Record<string, ArtifactStatusResponse>;
  evaluated_at: number;
  flow_template_id: string | null;
}

export interface TrailResponse {
  name: string;
  description: string;
  git_commit_info: Record<string, unknown> | null;
  origin_url: string | null;
  user_data: unknown;
  repo_info: Record<string, unknown> | null;
  repo_ids: string[];
  external_urls: Record<string, { href: string; fingerprint?: string }>;
  last_modified_at: number;
  created_at: number;
  created_by: string;
  compliance_status: ComplianceStatusResponse;
  compliance_state: TrailStatus;
  is_compliant: boolean;
  template: { version: 1; trail: unknown; content: string } | null;
  template_id: string | null;
  last_moment: number;
  events: unknown[];
  flow: { name: string; tags: Record<string, string> };
  html_url: string;
}

/** A slot as get trail moment shows it: the stored attestation's fields plus status/is_compliant/unexpected. */
export type MomentSlotResponse = Record<string, unknown> & {
  status: 'MISSING' | 'COMPLETE';
  is_compliant: boolean | null;
  unexpected: boolean;
};

export interface TrailMomentResponse {
  moment_number: number;
  created_at: number;
  template_id: string | null;
  compliance_status: Record<string, MomentSlotResponse>;
}

export function slotStatus(slot: Slot): SlotStatusResponse {
  return {
    attestation_name: slot.name,
    attestation_type: slot.attestation?.type ?? slot.expectedType,
    attestation_id: slot.attestation?.id ?? null,
    overridden_attestation_id: overriddenId(slot),
    status: slot.attestation ? 'COMPLETE' : 'MISSING',
    is_compliant: slot.attestation ? slot.attestation.isCompliant : null,
    unexpected: slot.unexpected,
    ...typedFieldsOf(slot),
  };
}

/** `data.<type>` (the summary a judging type stores, e.g. `junit`) and `compliance_reasons`, when the slot has them. */
function typedFieldsOf(slot: Slot): Record<string, unknown> {
  const a = slot.attestation;
  if (!a) return {};
  const typed = a.fields[a.type];
  const out: Record<string, unknown> = {};
  if (typed && typeof typed === 'object' && !Array.isArray(typed)) out[a.type] = typed;
  if (Array.isArray(a.fields.compliance_reasons)) out.compliance_reasons = a.fields.compliance_reasons;
  return out;
}

function overriddenId(slot: Slot): string | null {
  const id = slot.attestation?.fields.overridden_attestation_id;
  return typeof id === 'string' ? id : null;
}

/** `compliance_status` of GET trail: trail slots as an array, artifacts as a map keyed by template name. */
export function toComplianceStatus(state: TrailState, evaluatedAt: number): ComplianceStatusResponse {
  const templateId = state.template?.id ?? null;
  const artifacts: Record<string, ArtifactStatusResponse> = {};
  for (const group of state.compliance.artifacts) {
    const status = artifactStatusOf(group);
    const reported: ArtifactRecord | undefined = state.artifacts.get(group.name);
    artifacts[group.name] = {
      artifact_fingerprint: reported?.fingerprint ?? null,
      artifact_id: reported?.id ?? null,
      artifact_filename: reported?.filename ?? null,
      status,
      is_compliant: status === 'COMPLIANT',
      attestations_statuses: group.slots.map(slotStatus),
      unexpected: !group.expected,
      evaluated_at: evaluatedAt,
      flow_template_id: templateId,
    };
  }
  return {
    status: state.compliance.status,
    is_compliant: state.compliance.status === 'COMPLIANT',
    attestations_statuses: state.compliance.trailSlots.map(slotStatus),
    artifacts_statuses: artifacts,
    evaluated_at: evaluatedAt,
    flow_template_id: templateId,
  };
}

/** The CLI's `get trail` reads author, message (strings) and timestamp (number) of a commit without checks. */
function commitForCli(info: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!info) return null;
  return { ...info, author: info.author ?? '', message: info.message ?? '', timestamp: info.timestamp ?? 0 };
}

export function toTrailResponse(
  trail: TrailRecord,
  state: TrailState,
  orgName: string,
  publicBaseUrl: string,
  events: TrailEvent[] = [],
): TrailResponse {
  const compliance = toComplianceStatus(state, Number(trail.updated_at));
  const enc = encodeURIComponent;
  return {
    name: trail.name,
    description: trail.description ?? '',
    git_commit_info: commitForCli(trail.git_commit_info),
    origin_url: trail.origin_url,
    user_data: trail.user_data ?? {},
    repo_info: trail.repo_info,
    repo_ids: trail.repo_id ? [trail.repo_id] : [],
    external_urls: trail.external_urls ?? {},
    last_modified_at: Number(trail.updated_at),
    created_at: Number(trail.created_at),
    created_by: trail.created_by,
    compliance_status: compliance,
    compliance_state: compliance.status,
    is_compliant: compliance.is_compliant,
    template: state.template
      ? { version: 1, trail: state.template.spec.trail, content: state.template.source }
      : null,
    template_id: trail.template_id,
    last_moment: trail.last_moment,
    events,
    flow: { name: trail.flow_name, tags: trail.flow_tags ?? {} },
    html_url: `${publicBaseUrl}/${enc(orgName)}/flows/${enc(trail.flow_name)}/trails/${enc(trail.name)}`,
  };
}

/**
 * The flat slot map of a trail moment, keyed `<name>` / `<artifact>.<name>`. Two slots with one key make the
 * policy input unbuildable: 409.
 */
export function toMomentResponse(moment: MomentRecord, state: TrailState): TrailMomentResponse {
  if (state.compliance.duplicateKeys.length) {
    throw new ConflictError(
      `Two slots of the trail's template share the attestation name ${state.compliance.duplicateKeys
        .map((k) => `'${k}'`)
        .join(', ')}, so no policy input can be built`,
      { template: `duplicate slot keys: ${state.compliance.duplicateKeys.join(', ')}` },
    );
  }
  const slots: Record<string, MomentSlotResponse> = {};
  const put = (slot: Slot) => {
    if (slot.attestation) {
      slots[slot.key] = {
        ...slot.attestation.fields,
        status: 'COMPLETE',
        is_compliant: slot.attestation.isCompliant,
        unexpected: slot.unexpected,
      };
    } else {
      slots[slot.key] = {
        attestation_id: null,
        attestation_name: slot.name,
        attestation_type: slot.expectedType,
        artifact_name: slot.artifactName,
        artifact_fingerprint: slot.artifactName ? (state.artifacts.get(slot.artifactName)?.fingerprint ?? null) : null,
        status: 'MISSING',
        is_compliant: null,
        unexpected: slot.unexpected,
      };
    }
  };
  state.compliance.trailSlots.forEach(put);
  for (const group of state.compliance.artifacts) group.slots.forEach(put);
  return {
    moment_number: moment.momentNumber,
    created_at: moment.createdAt,
    template_id: moment.templateId,
    compliance_status: slots,
  };
}
