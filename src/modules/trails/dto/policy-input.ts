import { Slot } from '../domain/compliance';
import { MomentRecord, TrailEvent, TrailRecord, TrailState } from '../domain/trail-state';
import { slotStatus, toTrailResponse } from './trail.response';

/**
 * One trail as a policy sees it (an element of `input.trails`): the trail as GET trail shows it, as of one
 * moment, reshaped as the open-source CLI's `evaluate trails` reshapes it, so that a policy gives the same
 * verdict here and on the CLI:
 * - `compliance_status.attestations_statuses` (and each artifact's) is an object keyed by attestation name
 *   instead of an array; each entry carries the fields of its stored attestation (as the org-wide attestation
 *   read returns them) under the entry's own fields, which win on a clash;
 * - added: `flow_name`, `trail_name`, `moment_number`, `template_id`.
 * Everything in it is fixed by the moment: the trail's own fields are the ones in force at that moment,
 * `last_moment` is the moment, `last_modified_at` its time, `events` stop there, and the flow is named
 * without its tags (tags are not part of the trail's history).
 */
export function toPolicyInputTrail(
  trail: TrailRecord,
  moment: MomentRecord,
  state: TrailState,
  events: TrailEvent[],
  orgName: string,
  publicBaseUrl: string,
): Record<string, unknown> {
  const atMoment: TrailRecord = {
    ...trail,
    ...(moment.fields ? { ...moment.fields, repo_id: moment.repoId ?? null } : {}),
    template_id: moment.templateId,
    last_moment: moment.momentNumber,
    updated_at: moment.createdAt,
    flow_tags: null,
  };
  const response = toTrailResponse(atMoment, state, orgName, publicBaseUrl, events) as unknown as Record<string, unknown>;
  const compliance = response.compliance_status as Record<string, any>;
  compliance.attestations_statuses = slotMap(state.compliance.trailSlots);
  for (const group of state.compliance.artifacts) {
    compliance.artifacts_statuses[group.name].attestations_statuses = slotMap(group.slots);
  }
  return {
    ...response,
    flow: { name: trail.flow_name },
    flow_name: trail.flow_name,
    trail_name: trail.name,
    moment_number: moment.momentNumber,
    template_id: moment.templateId,
  };
}

function slotMap(slots: Slot[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const slot of slots) out[slot.name] = { ...(slot.attestation?.fields ?? {}), ...slotStatus(slot) };
  return out;
}
