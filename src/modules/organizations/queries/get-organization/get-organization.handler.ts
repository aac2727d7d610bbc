import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { OrganizationResponse, toOrganizationResponse } from '../../dto/organization.response';
import { OrganizationEntity } from '../../persistence/organization.entity';
import { GetOrganizationQuery } from './get-organization.query';

@QueryHandler(GetOrganizationQuery)
export class GetOrganizationHandler implements IQueryHandler<GetOrganizationQuery> {
  constructor(private readonly dataSource: DataSource) {}

  async execute(query: GetOrganizationQuery): Promise<OrganizationResponse & { role: string }> {
    const org = await this.dataSource.manager.findOneByOrFail(OrganizationEntity, { id: query.orgId });
    return { ...toOrganizationResponse(org), role: query.callerRole };
  }
}
