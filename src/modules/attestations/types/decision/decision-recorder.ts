import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Outbox } from '../../../outbox/outbox.module';
import { AttestationRecorder } from '../../recording/attestation-recorder';
import { decisionAttestationType } from './decision-attestation.type';
import { DecisionData, DecisionProvenance } from './decision-attestation.request.dto';

/** An evaluation's decision, as the evaluations module hands it over. */
export interface EvaluatedDecision {
  orgId: string;
  /** who asked for the evaluation: the attestation's reporter */
  actor: string;
  flow: string;
  trail: string;
  /** the attestation name */
  name: string;
  control: string;
  fingerprint: string | null;
  /** the policy's `allow` and `violations` (checked with decisionOutputProblem) */
  allow: boolean;
  violations: readonly string[];
  provenance: DecisionProvenance;
}

/** A policy's result can be a decision when `allow` is a boolean and `violations`, if any, a set of strings. */
export function decisionOutputProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'data.policy must be an object with a boolean `allow` for a decision';
  const doc = value as Record<string, unknown>;
  if (typeof doc.allow !== 'boolean') return `data.policy.allow must be a boolean for a decision, got ${doc.allow === undefined ? 'nothing' : JSON.stringify(doc.allow)}`;
  if (doc.violations !== undefined && !(Array.isArray(doc.violations) && doc.violations.every((v) => typeof v === 'string'))) {
    return 'data.policy.violations must be a set of strings';
  }
  return null;
}

/**
 * The decision type's facade for evaluations: records an evaluated decision as a `decision` attestation in the
 * decision's trail (through the one write path) and appends its `decision.recorded` event, in the caller's
 * transaction. What a decision attestation and its event hold is this module's business, not the runner's.
 */
@Injectable()
export class DecisionRecorder {
  constructor(
    private readonly recorder: AttestationRecorder,
    private readonly outbox: Outbox,
  ) {}

  async record(manager: EntityManager, decision: EvaluatedDecision): Promise<{ attestationId: string; momentNumber: number }> {
    const data: DecisionData = {
      attestation_name: decision.name,
      artifact_fingerprint: decision.fingerprint,
      control: decision.control,
      attestation_data: { is_compliant: decision.allow },
      violations: [...decision.violations].sort(),
      evaluation: decision.provenance,
    };
    const recorded = await this.recorder.record(manager, {
      orgId: decision.orgId,
      flowName: decision.flow,
      trailName: decision.trail,
      actor: decision.actor,
      type: decisionAttestationType,
      data,
    });
    const attestationId = recorded.attestationIds[0];
    await this.outbox.append(manager, {
      orgId: decision.orgId,
      type: 'decision.recorded',
      subject: { flow: decision.flow, trail: decision.trail, control: decision.control },
      payload: {
        attestation_id: attestationId,
        attestation_name: decision.name,
        control: decision.control,
        is_compliant: decision.allow,
        evaluation_id: decision.provenance.evaluation_id,
        violations: data.violations,
        artifact_fingerprint: decision.fingerprint ?? undefined,
        moment_number: recorded.momentNumber,
      },
    });
    return { attestationId, momentNumber: recorded.momentNumber };
  }
}
