import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { NotFoundError } from '../../../../common/errors/app-error';
import { EnvironmentResponse, toEnvironmentResponse } from '../../dto/environment.response';
import { EnvironmentReader } from '../../persistence/environment.reader';
import { GetEnvironmentQuery } from './get-environment.query';

@QueryHandler(GetEnvironmentQuery)
export class GetEnvironmentHandler implements IQueryHandler<GetEnvironmentQuery> {
  constructor(
    private readonly environments: EnvironmentReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: GetEnvironmentQuery): Promise<EnvironmentResponse> {
    const row = await this.environments.find(query.props.orgId, query.props.envName);
    if (!row) throw new NotFoundError(`Environment '${query.props.envName}' not found`);
    return toEnvironmentResponse(row, query.props.orgName, this.config.publicBaseUrl);
  }
}
