/**
 * What an action listens to. Each trigger is fed by one event type of the outbox (see the module README for
 * the event shapes); the two trail-compliance triggers are derived by the relay from `attestation.recorded`
 * events (the compliance watch), so they subscribe to that type.
 */
export type ActionType = 'env' | 'flow';

export const FLOW_TRIGGERS = ['ON_STARTED_TRAIL', 'ON_ATTESTATION', 'ON_NON_COMPLIANT_TRAIL', 'ON_COMPLIANT_TRAIL', 'ON_DECISION'] as const;
export const ENV_TRIGGERS = ['ON_STARTED_ARTIFACT', 'ON_EXITED_ARTIFACT', 'ON_SCALED_ARTIFACT', 'ON_NON_COMPLIANT_ENV', 'ON_COMPLIANT_ENV'] as const;
export type FlowTrigger = (typeof FLOW_TRIGGERS)[number];
export type EnvTrigger = (typeof ENV_TRIGGERS)[number];
export type Trigger = FlowTrigger | EnvTrigger;

export const TRIGGERS: Record<ActionType, readonly Trigger[]> = { flow: FLOW_TRIGGERS, env: ENV_TRIGGERS };

/** Event types of the outbox that actions consume (the catalogue; the module README gives their shapes). */
export const EVENT_TYPES = {
  trailStarted: 'trail.started',
  attestationRecorded: 'attestation.recorded',
  decisionRecorded: 'decision.recorded',
  snapshotCreated: 'snapshot.created',
  artifactStarted: 'artifact.started',
  artifactExited: 'artifact.exited',
  artifactScaled: 'artifact.scaled',
  environmentComplianceChanged: 'environment.compliance_changed',
} as const;

/** Derived by the relay, never stored in the outbox: a trail's compliance status changed. */
export const TRAIL_COMPLIANCE_CHANGED = 'trail.compliance_changed';

/** Every event type the relay claims (snapshot.created is claimed and dropped: no trigger listens to it). */
export const RELAYED_EVENT_TYPES: readonly string[] = Object.values(EVENT_TYPES);

const SOURCE_OF: Record<Trigger, string> = {
  ON_STARTED_TRAIL: EVENT_TYPES.trailStarted,
  ON_ATTESTATION: EVENT_TYPES.attestationRecorded,
  ON_NON_COMPLIANT_TRAIL: EVENT_TYPES.attestationRecorded,
  ON_COMPLIANT_TRAIL: EVENT_TYPES.attestationRecorded,
  ON_DECISION: EVENT_TYPES.decisionRecorded,
  ON_STARTED_ARTIFACT: EVENT_TYPES.artifactStarted,
  ON_EXITED_ARTIFACT: EVENT_TYPES.artifactExited,
  ON_SCALED_ARTIFACT: EVENT_TYPES.artifactScaled,
  ON_NON_COMPLIANT_ENV: EVENT_TYPES.environmentComplianceChanged,
  ON_COMPLIANT_ENV: EVENT_TYPES.environmentComplianceChanged,
};

/** The outbox event types an org must subscribe to for these triggers to fire. */
export function eventTypesFor(triggers: Iterable<string>): string[] {
  const types = new Set<string>();
  for (const trigger of triggers) if (trigger in SOURCE_OF) types.add(SOURCE_OF[trigger as Trigger]);
  return [...types].sort();
}

export const COMPLIANCE_TRIGGERS: readonly Trigger[] = ['ON_NON_COMPLIANT_TRAIL', 'ON_COMPLIANT_TRAIL'];

/**
 * The triggers a stored (non-derived) event fires, given its type and payload. Trail compliance triggers are
 * not here: the compliance watch decides them.
 */
export function triggersOf(type: string, payload: Record<string, unknown>): Trigger[] {
  switch (type) {
    case EVENT_TYPES.trailStarted:
      return ['ON_STARTED_TRAIL'];
    case EVENT_TYPES.attestationRecorded:
      return ['ON_ATTESTATION'];
    case EVENT_TYPES.decisionRecorded:
      return ['ON_DECISION'];
    case EVENT_TYPES.artifactStarted:
      return ['ON_STARTED_ARTIFACT'];
    case EVENT_TYPES.artifactExited:
      return ['ON_EXITED_ARTIFACT'];
    case EVENT_TYPES.artifactScaled:
      return ['ON_SCALED_ARTIFACT'];
    case EVENT_TYPES.environmentComplianceChanged:
      return [payload.compliant === true ? 'ON_COMPLIANT_ENV' : 'ON_NON_COMPLIANT_ENV'];
    default:
      return [];
  }
}

/**
 * The names of an action's scope that an event matches, sorted; empty when the action does not hear it. Flow
 * events name their flow in `subject.flow`. Environment events name their (physical) environment in
 * `subject.environment` and the logical environments it was a member of when the event was raised in
 * `subject.logical_environments`: an action that names any of them hears the event, once.
 */
export function matchedScopes(actionType: ActionType, scopes: readonly string[], subject: Record<string, unknown>): string[] {
  const names = actionType === 'flow' ? [subject.flow] : [subject.environment, ...listOf(subject.logical_environments)];
  return [...new Set(scopes.filter((scope) => names.includes(scope)))].sort();
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
