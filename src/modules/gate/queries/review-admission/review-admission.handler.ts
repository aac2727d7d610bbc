import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EnvironmentGate } from '../../../environments/environments.module';
import { PolicyGate } from '../../../policies/policies.module';
import { AdmissionReviewResponse, answer, readAdmissionReview, Refusal } from '../../domain/admission-review';
import { ReviewAdmissionQuery } from './review-admission.query';

/**
 * 400 malformed review -> 404 environment -> the answer. Exempt namespaces, `off`, deletions and objects that
 * are not pods or pod templates are allowed without judging anything. Each image is judged by its digest
 * against the environment's policies and allow-list (none attached: the rule of environments without
 * policies); an image without a digest cannot be judged and is refused with that reason.
 */
@QueryHandler(ReviewAdmissionQuery)
export class ReviewAdmissionHandler implements IQueryHandler<ReviewAdmissionQuery> {
  constructor(
    private readonly environments: EnvironmentGate,
    private readonly policies: PolicyGate,
  ) {}

  async execute(query: ReviewAdmissionQuery): Promise<AdmissionReviewResponse> {
    const { orgId, envName, mode, exemptNamespaces, body } = query.props;
    const review = readAdmissionReview(body);
    const env = await this.environments.require(orgId, envName);
    const allow = answer(review.uid, mode, env.name, []);
    if (mode === 'off' || review.images === null || !review.images.length) return allow;
    if (review.namespace !== null && exemptNamespaces.includes(review.namespace)) return allow;
    const rules = await this.policies.rulesOf(orgId, env.id);
    const policies = rules?.policies ?? [this.policies.defaultRule(env.requireProvenance)];
    const withDigest = review.images.filter((i) => i.fingerprint !== null);
    const decisions = await this.policies.judge(
      orgId,
      policies,
      withDigest.map((i) => ({ name: i.name, fingerprint: i.fingerprint! })),
      rules?.allowlist,
    );
    const refusals: Refusal[] = [];
    for (const image of review.images) {
      if (image.fingerprint === null) {
        refusals.push({ image, reasons: ['no digest: images are judged by digest (image@sha256:<64 hex>)'] });
        continue;
      }
      const decision = decisions[withDigest.indexOf(image)];
      if (!decision.compliant) refusals.push({ image, reasons: decision.reasons.map((r) => (rules ? r : r.replace(/^policy '\(environment without policies\)' v0: /, ''))) });
    }
    return answer(review.uid, mode, env.name, refusals);
  }
}
