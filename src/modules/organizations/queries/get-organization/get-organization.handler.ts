import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { OrganizationNotFoundError } from '../../../../common/errors/app-error';
import { OrganizationResponse, toOrganizationResponse } from '../../dto/organization.response';
import { OrganizationRepository } from '../../persistence/organization.repository';
import { GetOrganizationQuery } from './get-organization.query';

@QueryHandler(GetOrganizationQuery)
export class GetOrganizationHandler implements IQueryHandler<GetOrganizationQuery> {
  constructor(private readonly orgs: OrganizationRepository) {}

  async execute(query: GetOrganizationQuery): Promise<OrganizationResponse & { role: string }> {
    const org = await this.orgs.findById(query.props.orgId);
    if (!org) throw new OrganizationNotFoundError(query.props.orgId);
    return { ...toOrganizationResponse(org), role: query.props.callerRole };
  }
}
