import { createHash } from 'node:crypto';
import type { AllowListing, PolicyEvaluation } from '../../policies/policies.module';

import type { TrailStatus } from '../../trails/trails.module';

/** One trail that reported an artifact's fingerprint (its latest report there), with the trail's status. */
export interface ProvenanceEntry {
  flow_name: string;
  trail_name: string;
  template_reference_name: string;
  git_commit: string | null;
  commit_url: string | null;
  trail_status: TrailStatus;
}

/**
 * An artifact's compliance as evaluated when a snapshot was taken. Stored with the snapshot's runs and never
 * re-evaluated: a snapshot records what was known when it was taken.
 */
export interface ArtifactEvaluation {
  compliant: boolean;
  /** Some trail reported this fingerprint. */
  has_provenance: boolean;
  /** Sorted by flow name, then trail name. */
  flows: ProvenanceEntry[];
  /** Why it is not compliant, or why its provenance is missing; empty when there is nothing to say. */
  reasons: string[];
  /** With policies attached: each policy's rules for this artifact (the policies module's decision). */
  policy_decisions?: PolicyEvaluation[];
  /** With policies attached: the allow-list entry that made it compliant, if any. */
  allow_listing?: AllowListing | null;
}

/**
 * The rule: an artifact is compliant when every trail that reported its fingerprint is COMPLIANT. One no
 * trail reported has no provenance: it is flagged (`has_provenance: false`, a reason) and counts as compliant
 * unless the environment requires provenance. An unknown digest (ECS reports `""`) can have no provenance.
 */
export function evaluateArtifact(fingerprint: string, provenance: readonly ProvenanceEntry[], requireProvenance: boolean): ArtifactEvaluation {
  const flows = [...provenance].sort((a, b) => compare(a.flow_name, b.flow_name) || compare(a.trail_name, b.trail_name));
  const reasons: string[] = [];
  const hasProvenance = flows.length > 0;
  if (!hasProvenance) {
    reasons.push(fingerprint === '' ? 'the digest of this artifact is unknown, so no provenance can be found' : 'no provenance: no trail reported this fingerprint');
    if (requireProvenance) reasons.push('the environment requires provenance');
  }
  for (const f of flows) if (f.trail_status !== 'COMPLIANT') reasons.push(`trail '${f.trail_name}' of flow '${f.flow_name}' is ${f.trail_status}`);
  const compliant = (hasProvenance || !requireProvenance) && flows.every((f) => f.trail_status === 'COMPLIANT');
  return { compliant, has_provenance: hasProvenance, flows, reasons };
}

/** Two evaluations are the same when this is (a run continues only while its evaluation does). */
export function evaluationHash(evaluation: ArtifactEvaluation): Buffer {
  return createHash('sha256').update(JSON.stringify(evaluation)).digest();
}

/** Which bucket of `artifact_compliance_count` an evaluation falls in: `"null"` is compliant without provenance. */
export function complianceBucket(evaluation: Pick<ArtifactEvaluation, 'compliant' | 'has_provenance'>): 'true' | 'false' | 'null' {
  if (!evaluation.compliant) return 'false';
  return evaluation.has_provenance ? 'true' : 'null';
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
