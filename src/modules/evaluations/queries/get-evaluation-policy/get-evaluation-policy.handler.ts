import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { EvaluationPolicyRepository } from '../../persistence/evaluation-policy.repository';
import { EvaluationRepository } from '../../persistence/evaluation.repository';
import { EvaluationPolicyResponse, GetEvaluationPolicyQuery } from './get-evaluation-policy.query';

@QueryHandler(GetEvaluationPolicyQuery)
export class GetEvaluationPolicyHandler implements IQueryHandler<GetEvaluationPolicyQuery> {
  constructor(
    private readonly evaluations: EvaluationRepository,
    private readonly policies: EvaluationPolicyRepository,
  ) {}

  async execute({ props: { orgId, id } }: GetEvaluationPolicyQuery): Promise<EvaluationPolicyResponse> {
    const row = await this.evaluations.find(orgId, id);
    if (!row) throw new NotFoundError(`Evaluation '${id}' not found`);
    // Every evaluation's bundle is stored (a foreign key holds it) whatever its status: failed ones too.
    const bundle = await this.policies.bundle(orgId, row.policy_digest);
    if (!bundle) throw new NotFoundError(`Evaluation '${id}': policy bundle '${row.policy_digest}' not found`);
    return { evaluation_id: id, digest: row.policy_digest, files: bundle.files, file_digests: bundle.fileDigests };
  }
}
