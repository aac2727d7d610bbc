import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { EvaluationResponse, toEvaluationResponse } from '../../dto/evaluation.response';
import { EvaluationRepository } from '../../persistence/evaluation.repository';
import { GetEvaluationQuery } from './get-evaluation.query';

@QueryHandler(GetEvaluationQuery)
export class GetEvaluationHandler implements IQueryHandler<GetEvaluationQuery> {
  constructor(private readonly evaluations: EvaluationRepository) {}

  async execute(query: GetEvaluationQuery): Promise<EvaluationResponse> {
    const row = await this.evaluations.find(query.props.orgId, query.props.id);
    if (!row) throw new NotFoundError(`Evaluation '${query.props.id}' not found`);
    return toEvaluationResponse(row);
  }
}
