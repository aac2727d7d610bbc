import { compileWrapped, evaluateExpression, ExpressionContext, Node, PolicyExpressionError } from '../../../../libs/policy-expression/src';
import type { AttestationRule, BooleanRule, PolicySpec } from './policy-spec';

import type { TrailStatus } from '../../trails/trails.module';

export type { TrailStatus };

/** One attestation a trail holds for an artifact (its own or the trail's), the latest of its slot. */
export interface EvidenceAttestation {
  name: string;
  type: string;
  compliant: boolean;
  /** The control a decision is about (decisions only). */
  control: string | null;
}

/** One trail that reported the artifact, with its flow and what it holds. */
export interface EvidenceTrail {
  flow: string;
  trail: string;
  flowTags: Record<string, string>;
  status: TrailStatus;
  attestations: EvidenceAttestation[];
  /** The file name the trail reported the artifact as. */
  artifactName?: string;
  /** The trail's slots for this artifact as its flow template lays them out (what an assertion shows). */
  slots?: SlotStatus[];
}

/** One slot of a trail for an artifact: expected by the template, or filled without being expected. */
export interface SlotStatus {
  attestation_name: string;
  attestation_type: string | null;
  status: 'COMPLETE' | 'MISSING';
  is_compliant: boolean | null;
  unexpected: boolean;
}

/** What is known of one artifact when it is judged. `trails` empty: no provenance. */
export interface ArtifactEvidence {
  name: string;
  fingerprint: string;
  trails: EvidenceTrail[];
}

export type ResolutionType =
  | 'missing_attestation'
  | 'non_compliant_attestation'
  | 'non_compliant_in_trail'
  | 'no_provenance'
  | 'rule_satisfied'
  | 'rule_not_applicable'
  | 'expression_error';

export interface Resolution {
  type: ResolutionType;
  context: {
    flow_name: string | null;
    trail_name: string | null;
    artifact_status?: string | null;
    for_control?: string;
    /** Which exception (`exceptions[i]`) waived the rule, or which `if` failed to evaluate. */
    exception?: number;
    expression?: string;
    error?: string;
  } | null;
}

export interface RuleEvaluation {
  rule: { type: 'provenance' | 'trail-compliance' | 'attestation'; definition: BooleanRule | AttestationRule };
  /** null when the rule did not apply (ignored). */
  satisfied: boolean | null;
  ignored: boolean;
  resolutions: Resolution[];
  /** Why, in words (empty when satisfied). */
  reasons: string[];
}

export interface PolicyEvaluation {
  policy_name: string;
  policy_version: number;
  status: 'COMPLIANT' | 'NON-COMPLIANT';
  rule_evaluations: RuleEvaluation[];
}

export interface PolicyToApply {
  name: string;
  version: number;
  spec: PolicySpec;
}

const trees = new Map<string, Node>();
/** Saved policies' expressions parsed once (they were checked when the policy was saved). */
function tree(text: string): Node {
  let node = trees.get(text);
  if (!node) {
    node = compileWrapped(text);
    if (trees.size > 10_000) trees.clear();
    trees.set(text, node);
  }
  return node;
}

const contextOf = (artifact: ArtifactEvidence, trail: EvidenceTrail | null): ExpressionContext => ({
  flow: trail ? { name: trail.flow, tags: trail.flowTags } : null,
  artifact: { name: artifact.name, fingerprint: artifact.fingerprint },
});

type Outcome = { value: boolean } | { error: PolicyExpressionError };

function test(text: string, ctx: ExpressionContext): Outcome {
  try {
    return { value: evaluateExpression(tree(text), ctx) };
  } catch (error) {
    if (error instanceof PolicyExpressionError) return { error };
    throw error;
  }
}

const where = (t: EvidenceTrail | null) => ({ flow_name: t?.flow ?? null, trail_name: t?.trail ?? null });

/**
 * The first exception whose `if` holds in this context, or an evaluation error (which waives nothing: a rule
 * whose exception cannot be evaluated fails, closed).
 */
function waiver(rule: BooleanRule, ctx: ExpressionContext): { index: number } | { error: PolicyExpressionError; index: number } | null {
  for (const [index, e] of rule.exceptions.entries()) {
    if (e.if === null) continue;
    const outcome = test(e.if, ctx);
    if ('error' in outcome) return { error: outcome.error, index };
    if (outcome.value) return { index };
  }
  return null;
}

function provenanceRule(rule: BooleanRule, artifact: ArtifactEvidence): RuleEvaluation {
  const out: RuleEvaluation = { rule: { type: 'provenance', definition: rule }, satisfied: true, ignored: false, resolutions: [], reasons: [] };
  if (artifact.trails.length) {
    out.resolutions.push({ type: 'rule_satisfied', context: null });
    return out;
  }
  const waived = waiver(rule, contextOf(artifact, null));
  if (waived && !('error' in waived)) {
    return { ...out, satisfied: null, ignored: true, resolutions: [{ type: 'rule_not_applicable', context: { ...where(null), exception: waived.index } }] };
  }
  out.satisfied = false;
  if (waived && 'error' in waived) {
    out.resolutions.push({ type: 'expression_error', context: { ...where(null), exception: waived.index, error: waived.error.message } });
    out.reasons.push(`exceptions[${waived.index}] of provenance could not be evaluated: ${waived.error.message}`);
  }
  out.resolutions.push({ type: 'no_provenance', context: null });
  out.reasons.push('no provenance: no trail reported this artifact');
  return out;
}

function trailComplianceRule(rule: BooleanRule, artifact: ArtifactEvidence): RuleEvaluation {
  const out: RuleEvaluation = { rule: { type: 'trail-compliance', definition: rule }, satisfied: true, ignored: false, resolutions: [], reasons: [] };
  const contexts = artifact.trails.length ? artifact.trails : [null];
  let applied = 0;
  for (const t of contexts) {
    const waived = waiver(rule, contextOf(artifact, t));
    if (waived && !('error' in waived)) {
      out.resolutions.push({ type: 'rule_not_applicable', context: { ...where(t), exception: waived.index } });
      continue;
    }
    applied++;
    if (waived && 'error' in waived) {
      out.satisfied = false;
      out.resolutions.push({ type: 'expression_error', context: { ...where(t), exception: waived.index, error: waived.error.message } });
      out.reasons.push(`exceptions[${waived.index}] of trail-compliance could not be evaluated: ${waived.error.message}`);
      continue;
    }
    if (!t) {
      out.satisfied = false;
      out.resolutions.push({ type: 'no_provenance', context: null });
      out.reasons.push('no provenance: the artifact is in no trail, so in no compliant trail');
    } else if (t.status !== 'COMPLIANT') {
      out.satisfied = false;
      out.resolutions.push({ type: 'non_compliant_in_trail', context: { ...where(t), artifact_status: t.status } });
      out.reasons.push(`trail '${t.trail}' of flow '${t.flow}' is ${t.status}`);
    } else {
      out.resolutions.push({ type: 'rule_satisfied', context: where(t) });
    }
  }
  if (applied === 0) return { ...out, satisfied: null, ignored: true };
  return out;
}

/** `custom:<name>` matches a type registered as `custom:<name>` or as `<name>`. */
function typeMatches(wanted: string, actual: string): boolean {
  if (wanted === '*' || wanted === actual) return true;
  return wanted.startsWith('custom:') && wanted.slice('custom:'.length) === actual;
}

function describeRule(rule: AttestationRule): string {
  if (rule.for_control !== null) return `a decision for control '${rule.for_control}'`;
  if (rule.name === '*') return `an attestation of type '${rule.type}'`;
  return rule.type === '*' ? `attestation '${rule.name}'` : `attestation '${rule.name}' of type '${rule.type}'`;
}

/**
 * A required attestation. It applies in each trail of the artifact whose flow makes its `if` true (or in all
 * when it has none), and is satisfied when one of those trails holds a matching attestation (compliant, unless
 * `must_be_compliant: false`). An artifact no trail reported has none, unless the `if` waives the rule.
 */
function attestationRule(rule: AttestationRule, artifact: ArtifactEvidence): RuleEvaluation {
  const out: RuleEvaluation = { rule: { type: 'attestation', definition: rule }, satisfied: false, ignored: false, resolutions: [], reasons: [] };
  const control = rule.for_control !== null ? { for_control: rule.for_control } : {};
  const contexts = artifact.trails.length ? artifact.trails : [null];
  const applicable: Array<EvidenceTrail | null> = [];
  for (const t of contexts) {
    if (rule.if === null) {
      applicable.push(t);
      continue;
    }
    const outcome = test(rule.if, contextOf(artifact, t));
    if ('error' in outcome) {
      out.resolutions.push({ type: 'expression_error', context: { ...where(t), expression: rule.if, error: outcome.error.message } });
      out.reasons.push(`the if of ${describeRule(rule)} could not be evaluated: ${outcome.error.message}`);
      return out;
    }
    if (outcome.value) applicable.push(t);
  }
  if (!applicable.length) {
    return { ...out, satisfied: null, ignored: true, resolutions: [{ type: 'rule_not_applicable', context: null }] };
  }
  for (const t of applicable) {
    if (!t) {
      out.resolutions.push({ type: 'no_provenance', context: { ...where(null), ...control } });
      out.reasons.push(`${describeRule(rule)} is required, but no trail reported this artifact`);
      continue;
    }
    const matching = t.attestations.filter(
      (a) => typeMatches(rule.type, a.type) && (rule.name === '*' || a.name === rule.name) && (rule.for_control === null || a.control === rule.for_control),
    );
    if (matching.some((a) => a.compliant || !rule.must_be_compliant)) {
      out.satisfied = true;
      out.resolutions = [{ type: 'rule_satisfied', context: where(t) }];
      out.reasons = [];
      return out;
    }
    if (matching.length) {
      out.resolutions.push({ type: 'non_compliant_attestation', context: { ...where(t), ...control } });
      out.reasons.push(`${describeRule(rule)} is not compliant in trail '${t.trail}' of flow '${t.flow}'`);
    } else {
      out.resolutions.push({ type: 'missing_attestation', context: { ...where(t), ...control } });
      out.reasons.push(`missing ${describeRule(rule)} in trail '${t.trail}' of flow '${t.flow}'`);
    }
  }
  return out;
}

/** One artifact against one policy version: every rule, in the order the policy lists them. */
export function evaluatePolicy(policy: PolicyToApply, artifact: ArtifactEvidence): PolicyEvaluation {
  const rules: RuleEvaluation[] = [];
  const a = policy.spec.artifacts;
  if (a.provenance.required) rules.push(provenanceRule(a.provenance, artifact));
  if (a['trail-compliance'].required) rules.push(trailComplianceRule(a['trail-compliance'], artifact));
  for (const rule of a.attestations) rules.push(attestationRule(rule, artifact));
  const failed = rules.some((r) => !r.ignored && r.satisfied === false);
  return { policy_name: policy.name, policy_version: policy.version, status: failed ? 'NON-COMPLIANT' : 'COMPLIANT', rule_evaluations: rules };
}

/** An allow-list entry that covers an artifact in an environment. */
export interface AllowListing {
  artifact_name: string;
  fingerprint: string;
  description: string;
  user_name: string;
  timestamp: number;
}

/** What the policies of an environment (or an assertion) decide for one artifact. */
export interface ArtifactDecision {
  compliant: boolean;
  policy_evaluations: PolicyEvaluation[];
  allow_listing: AllowListing | null;
  /** `policy 'p' v2: missing attestation 'unit-test' of type 'junit' in trail ...` */
  reasons: string[];
}

export function decide(policies: readonly PolicyToApply[], artifact: ArtifactEvidence, allowListing: AllowListing | null): ArtifactDecision {
  const evaluations = policies.map((p) => evaluatePolicy(p, artifact));
  const reasons: string[] = [];
  for (const e of evaluations) {
    for (const r of e.rule_evaluations) if (!r.ignored && r.satisfied === false) for (const why of r.reasons) reasons.push(`policy '${e.policy_name}' v${e.policy_version}: ${why}`);
  }
  const passes = evaluations.every((e) => e.status === 'COMPLIANT');
  if (allowListing && !passes) reasons.push(`allowed in this environment by ${allowListing.user_name}: ${allowListing.description}`);
  return { compliant: passes || allowListing !== null, policy_evaluations: evaluations, allow_listing: allowListing, reasons };
}
