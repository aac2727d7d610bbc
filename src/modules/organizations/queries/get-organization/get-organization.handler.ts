import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { OrganizationNotFoundError } from '../../../../common/errors/app-error';
import { OrganizationResponse, toOrganizationResponse } from '../../dto/organization.response';
import { OrganizationRepository } from '../../persistence/organization.repository';
import { MembershipRepository } from '../../persistence/membership.repository';
import { DataSource } from 'typeorm';
import { GetOrganizationQuery } from './get-organization.query';

@QueryHandler(GetOrganizationQuery)
export class GetOrganizationHandler implements IQueryHandler<GetOrganizationQuery> {
  constructor(
    private readonly orgs: OrganizationRepository,
    private readonly memberships: MembershipRepository,
    private readonly dataSource: DataSource,
  ) {}

  async execute(query: GetOrganizationQuery): Promise<OrganizationResponse & { role: string; is_default: boolean }> {
    const org = await this.orgs.findById(query.props.orgId);
    if (!org) throw new OrganizationNotFoundError(query.props.orgId);
    const caller = query.props.caller;
    const isDefault = caller?.kind === 'user' ? await this.memberships.isDefault(this.dataSource.manager, org.id, caller.id) : false;
    return { ...toOrganizationResponse(org), role: query.props.callerRole, is_default: isDefault };
  }
}
