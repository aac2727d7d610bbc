import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { DEFAULT_PER_PAGE, PageEnvelope, pageEnvelope } from '../../../../common/pagination/page-envelope';
import { EvaluationResponse, toEvaluationResponse } from '../../dto/evaluation.response';
import { EvaluationRepository } from '../../persistence/evaluation.repository';
import { ListEvaluationsQuery } from './list-evaluations.query';

@QueryHandler(ListEvaluationsQuery)
export class ListEvaluationsHandler implements IQueryHandler<ListEvaluationsQuery> {
  constructor(
    private readonly evaluations: EvaluationRepository,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: ListEvaluationsQuery): Promise<PageEnvelope<EvaluationResponse>> {
    const { orgId, orgName, page = 1, perPage = DEFAULT_PER_PAGE, status, control } = query.props;
    const { rows, total } = await this.evaluations.page(orgId, { status, control }, page, perPage);
    return pageEnvelope(
      rows.map(toEvaluationResponse),
      total,
      page,
      perPage,
      `${this.config.publicBaseUrl}/api/v2/evaluations/${encodeURIComponent(orgName)}`,
      { status, control },
    );
  }
}
