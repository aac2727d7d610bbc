import { Injectable } from '@nestjs/common';
import { TrailPolicyInput } from '../trails/trails.module';
import { canonicalInput, inputDocument, nanosecondsOf } from './running/evaluation-input';
import { EvaluationResponse, toEvaluationResponse } from './dto/evaluation.response';
import { canonicalJson } from './domain/canonical-json';
import { EvaluationEnvelopeRepository } from './persistence/evaluation-envelope.repository';
import { EvaluationPolicyRepository } from './persistence/evaluation-policy.repository';
import { EvaluationRepository } from './persistence/evaluation.repository';

export interface ArchivedEvaluation {
  id: string;
  /** As `GET /evaluations/{org}/{id}` answers it. */
  record: EvaluationResponse;
  /** The signed decision's canonical JSON (null: completed before decisions were signed). */
  envelope: string | null;
  /** `sha256:<hex>` */
  policyDigest: string;
  /** The policy bundle's files by path. */
  policyFiles: Record<string, string>;
  /**
   * What a replay needs beyond the bundle, as canonical JSON: `{"input": <the input document, rebuilt from the
   * pinned moments>, "params": <mounted as data.params, or null>, "now_ns": "<time.now_ns() as decimal text>"}`.
   */
  replay: string;
}

/**
 * The evaluations module's public surface for audit packages: the completed evaluations that covered a trail,
 * with their signed statements and policy bundles.
 */
@Injectable()
export class EvaluationArchive {
  constructor(
    private readonly evaluations: EvaluationRepository,
    private readonly envelopes: EvaluationEnvelopeRepository,
    private readonly policies: EvaluationPolicyRepository,
    private readonly policyInput: TrailPolicyInput,
  ) {}

  async covering(orgId: string, flowName: string, trailName: string): Promise<ArchivedEvaluation[]> {
    const rows = await this.evaluations.completedCovering(orgId, flowName, trailName);
    const envelopes = await this.envelopes.findMany(orgId, rows.map((r) => r.id));
    const out: ArchivedEvaluation[] = [];
    const bundles = new Map<string, Record<string, string>>();
    for (const row of rows) {
      let files = bundles.get(row.policy_digest);
      if (!files) bundles.set(row.policy_digest, (files = (await this.policies.files(orgId, row.policy_digest)) ?? {}));
      const input = canonicalInput(inputDocument(await this.policyInput.build(row.org_id, row.org_name, row.trails, row.public_base_url)));
      // Composed as text: the input's canonical text is what was hashed (input_digest) and what the engine parsed.
      const replay = `{"input":${input},"now_ns":${JSON.stringify(nanosecondsOf(row.recorded_at).toString())},"params":${row.params === null ? 'null' : canonicalJson(row.params)}}`;
      out.push({ id: row.id, record: toEvaluationResponse(row), envelope: envelopes.get(row.id)?.envelope ?? null, policyDigest: row.policy_digest, policyFiles: files, replay });
    }
    return out;
  }
}
