import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { NotFoundError } from '../../../../common/errors/app-error';
import { FLOW_COLUMNS, FLOW_FROM, FlowResponse, FlowRow, toFlowResponse } from '../../dto/flow.response';
import { GetFlowQuery } from './get-flow.query';

@QueryHandler(GetFlowQuery)
export class GetFlowHandler implements IQueryHandler<GetFlowQuery> {
  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: GetFlowQuery): Promise<FlowResponse> {
    const rows: FlowRow[] = await this.dataSource.query(
      `SELECT ${FLOW_COLUMNS} ${FLOW_FROM} WHERE f.org_id = $1 AND f.name = $2`,
      [query.orgId, query.flowName],
    );
    if (!rows.length) throw new NotFoundError(`Flow '${query.flowName}' not found`);
    return toFlowResponse(rows[0], query.orgName, this.config.publicBaseUrl);
  }
}
