import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ArtifactDirectory, ArtifactProvenance } from '../../artifacts/artifacts.module';
import { createHash } from 'node:crypto';
import { ArtifactDecision, EnvironmentRules, PolicyGate } from '../../policies/policies.module';
import { TrailStateReader } from '../../trails/trails.module';
import type { TrailStatus } from '../../trails/trails.module';
import { evaluateArtifact, evaluationHash, ProvenanceEntry } from '../domain/artifact-compliance';
import { ArtifactCount } from '../domain/report-summary';
import { NextArtifact } from '../domain/snapshot-plan';

/**
 * Evaluates the artifacts of a snapshot about to be taken: which trails reported each fingerprint (the
 * artifacts module's provenance) and each such trail's current compliance (the trails module's state reader).
 *
 * A trail's status at a given moment number never changes (its state at moment N is built from rows stamped
 * <= N, evidence is append-only and the template in force is fixed), so statuses are kept per process by
 * (trail, moment); a trail that gets new evidence has a new last moment and is evaluated again.
 */
@Injectable()
export class ComplianceEvaluator {
  private readonly statuses = new LRUCache<string, TrailStatus>({ max: 200_000 });

  constructor(
    private readonly artifacts: ArtifactDirectory,
    private readonly trails: TrailStateReader,
    private readonly policies: PolicyGate,
  ) {}

  /**
   * `rules`: the environment's attached policies and allow-list. Without any, today's rule holds (every trail
   * compliant, and provenance when the environment requires it); with them, the policies alone decide (each
   * artifact's decisions and reasons are kept in its evaluation) and `require_provenance` is not used.
   */
  async evaluate(orgId: string, artifacts: readonly ArtifactCount[], requireProvenance: boolean, rules: EnvironmentRules | null = null): Promise<NextArtifact[]> {
    const evaluated = await this.evaluateByTrails(orgId, artifacts, requireProvenance);
    if (!rules) return evaluated;
    const decisions = await this.policies.judge(orgId, rules.policies, artifacts, rules.allowlist);
    return evaluated.map((a, i) => {
      const d = decisions[i];
      const evaluation = { ...a.evaluation, compliant: d.compliant, reasons: d.reasons };
      // The hash covers the evaluation and the decision; a decision's digest is kept with it (the policies
      // module hands back the same object while nothing it depends on changed), so an unchanged artifact of a
      // changed report costs no serialisation of its rules.
      const hash = createHash('sha256').update(evaluationHash(evaluation)).update(this.digestOf(d)).digest('hex');
      return { ...a, evaluation: { ...evaluation, policy_decisions: d.policy_evaluations, allow_listing: d.allow_listing }, evaluationHash: hash };
    });
  }

  private readonly digests = new WeakMap<ArtifactDecision, Buffer>();

  private digestOf(decision: ArtifactDecision): Buffer {
    let digest = this.digests.get(decision);
    if (!digest) {
      digest = createHash('sha256').update(JSON.stringify([decision.policy_evaluations, decision.allow_listing])).digest();
      this.digests.set(decision, digest);
    }
    return digest;
  }

  private async evaluateByTrails(orgId: string, artifacts: readonly ArtifactCount[], requireProvenance: boolean): Promise<NextArtifact[]> {
    const fingerprints = [...new Set(artifacts.map((a) => a.fingerprint).filter((f) => f !== ''))];
    const provenance = await this.artifacts.provenanceOf(orgId, fingerprints);
    const statuses = await this.trailStatuses(provenance);
    const byFingerprint = new Map<string, ProvenanceEntry[]>();
    for (const p of provenance) {
      const entry: ProvenanceEntry = {
        flow_name: p.flowName,
        trail_name: p.trailName,
        template_reference_name: p.templateReferenceName,
        git_commit: p.gitCommit,
        commit_url: p.commitUrl,
        trail_status: statuses.get(statusKey(p))!,
      };
      const list = byFingerprint.get(p.fingerprint);
      if (list) list.push(entry);
      else byFingerprint.set(p.fingerprint, [entry]);
    }
    return artifacts.map((a) => {
      const evaluation = evaluateArtifact(a.fingerprint, byFingerprint.get(a.fingerprint) ?? [], requireProvenance);
      return { ...a, evaluation, evaluationHash: evaluationHash(evaluation).toString('hex') };
    });
  }

  private async trailStatuses(provenance: readonly ArtifactProvenance[]): Promise<Map<string, TrailStatus>> {
    const out = new Map<string, TrailStatus>();
    const missing = new Map<string, ArtifactProvenance>();
    for (const p of provenance) {
      const key = statusKey(p);
      const known = this.statuses.get(key);
      if (known) out.set(key, known);
      else missing.set(p.trailId, p);
    }
    if (missing.size) {
      const states = await this.trails.currentStates(
        [...missing.values()].map((p) => ({ id: p.trailId, template_id: p.templateId, last_moment: p.lastMoment })),
      );
      for (const p of missing.values()) {
        const status = states.get(p.trailId)!.compliance.status;
        this.statuses.set(statusKey(p), status);
        out.set(statusKey(p), status);
      }
    }
    return out;
  }
}

const statusKey = (p: Pick<ArtifactProvenance, 'trailId' | 'lastMoment'>) => `${p.trailId}:${p.lastMoment}`;
