import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { EvaluationEnvelopeRepository } from '../../persistence/evaluation-envelope.repository';
import { EvaluationRepository } from '../../persistence/evaluation.repository';
import { GetEvaluationAttestationQuery } from './get-evaluation-attestation.query';

@QueryHandler(GetEvaluationAttestationQuery)
export class GetEvaluationAttestationHandler implements IQueryHandler<GetEvaluationAttestationQuery> {
  constructor(
    private readonly evaluations: EvaluationRepository,
    private readonly envelopes: EvaluationEnvelopeRepository,
  ) {}

  async execute({ props: { orgId, id } }: GetEvaluationAttestationQuery): Promise<string> {
    const row = await this.evaluations.find(orgId, id);
    if (!row) throw new NotFoundError(`Evaluation '${id}' not found`);
    if (row.status === 'failed') {
      const why = row.error ? `${row.error.kind}: ${row.error.message}` : 'failed';
      throw new NotFoundError(`Evaluation '${id}' failed (${why}): a failed evaluation has no signed statement`);
    }
    if (row.status === 'pending') throw new NotFoundError(`Evaluation '${id}' is still pending: it is signed when it completes`);
    const stored = await this.envelopes.find(orgId, id);
    // Completed before signed decisions existed: nothing was signed then, and nothing is signed after the fact.
    if (!stored) throw new NotFoundError(`Evaluation '${id}' completed before decisions were signed: it has no signed statement`);
    return stored.envelope;
  }
}
