import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../../common/config/app-config';
import { buildVsaStatement, recordedAtFromEpochMicros, signStatement } from '../../../../libs/transparency/src';
import { ArtifactDirectory } from '../../artifacts/artifacts.module';
import { EntryAnswer, EvidenceLog, LogSigner, LookupEntryQuery } from '../../evidence-log/evidence-log.module';
import { EvaluationEnvelopeRepository } from '../persistence/evaluation-envelope.repository';
import { EvaluationRow } from '../persistence/evaluation.repository';
import { serviceVersion } from '../running/service-version';

/** An evaluation's URL: the statement's resourceUri (and, with `#policy`, its policy's uri). */
export function evaluationUrl(row: Pick<EvaluationRow, 'public_base_url' | 'org_name' | 'id'>): string {
  return `${row.public_base_url}/api/v2/evaluations/${encodeURIComponent(row.org_name)}/${row.id}`;
}

/** An attestation's read URL (its record_sha256 is over the element of `data` this route answers). */
export function attestationReadUrl(baseUrl: string, org: string, attestationId: string): string {
  return `${baseUrl}/api/v2/attestations/${encodeURIComponent(org)}?attestation_id=${encodeURIComponent(attestationId)}`;
}

/** Decimal Unix seconds (the evaluations table's text form) as RFC 3339 UTC with microseconds. */
export function instantOf(secondsText: string): string {
  const [whole, fraction = ''] = secondsText.split('.');
  return recordedAtFromEpochMicros(BigInt(whole) * 1_000_000n + BigInt((fraction + '000000').slice(0, 6)));
}

/** Every attestation id an input element names (entries of attestations_statuses, trail-level and per artifact). */
export function attestationIdsOf(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const v of value) attestationIdsOf(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (k === 'attestation_id' && typeof v === 'string') into.add(v);
      else attestationIdsOf(v, into);
    }
  }
  return into;
}

/**
 * Signs a completed evaluation (trust layer, signed decisions): an in-toto Statement v1 with a SLSA VSA v1
 * predicate, in a DSSE envelope signed with the evidence log's active key. The envelope's canonical JSON is
 * stored and logged (kind `evaluation`, record_sha256 = SHA-256 of those bytes) in the completing transaction.
 */
@Injectable()
export class DecisionSigner {
  constructor(
    private readonly envelopes: EvaluationEnvelopeRepository,
    private readonly log: EvidenceLog,
    private readonly signer: LogSigner,
    private readonly queryBus: QueryBus,
    private readonly artifacts: ArtifactDirectory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async sign(
    manager: EntityManager,
    row: EvaluationRow,
    input: Record<string, unknown>,
    outcome: { allow: boolean; engineVersion: string },
  ): Promise<{ sha256: string }> {
    const elements = (input.trails ?? []) as Array<Record<string, unknown>>;
    const ids = [...attestationIdsOf(elements)].sort();
    const inputAttestations = [];
    for (const id of ids) {
      // The attestation's own log entry holds its record_sha256 (committed with it, before this evaluation began).
      const entry: EntryAnswer = await this.queryBus.execute(new LookupEntryQuery({ orgId: row.org_id, orgName: row.org_name, kind: 'attestation', id }));
      const leaf = JSON.parse(entry.leaf) as { record_sha256: string };
      inputAttestations.push({ uri: attestationReadUrl(row.public_base_url, row.org_name, id), recordSha256: leaf.record_sha256 });
    }
    const artifacts = [];
    const fingerprint = row.decision?.fingerprint;
    if (fingerprint) {
      const found = await this.artifacts.provenanceOf(row.org_id, [fingerprint]);
      const here = found.find((p) => p.flowName === row.decision!.flow && p.trailName === row.decision!.trail) ?? found[0];
      artifacts.push({ name: here?.templateReferenceName ?? fingerprint, fingerprint });
    }
    const timeVerified = instantOf(row.recorded_at);
    const statement = buildVsaStatement({
      verifierId: this.config.publicBaseUrl,
      veritrailVersion: serviceVersion(),
      regoVersion: outcome.engineVersion,
      timeVerified,
      evaluationUrl: evaluationUrl(row),
      policySha256: row.policy_digest.replace(/^sha256:/, ''),
      trails: elements.map((t) => ({
        org: row.org_name,
        flow: String(t.flow_name),
        trail: String(t.trail_name),
        moment: Number(t.moment_number),
        input: t,
      })),
      artifacts,
      inputAttestations,
      allowed: outcome.allow,
      controlId: row.decision?.control ?? row.control ?? undefined,
    });
    const signed = signStatement(statement, [this.signer.dsseSigner()]);
    await this.envelopes.insert(manager, row.org_id, row.id, { envelope: signed.canonical, sha256: signed.sha256 });
    await this.log.append(manager, {
      orgId: row.org_id,
      org: row.org_name,
      kind: 'evaluation',
      id: row.id,
      record: signed.envelope,
      recordedAt: timeVerified,
    });
    return { sha256: signed.sha256 };
  }
}
