import { Query } from '@nestjs/cqrs';
import { OrganizationResponse } from '../../dto/organization.response';

export class GetOrganizationQuery extends Query<OrganizationResponse & { role: string }> {
  constructor(readonly orgId: string, readonly callerRole: string) {
    super();
  }
}
