import { Command } from '@nestjs/cqrs';
import { OrganizationResponse } from '../../dto/organization.response';

/** Replaces the org's beta feature set. */
export class UpdateOrganizationCommand extends Command<OrganizationResponse> {
  constructor(readonly orgName: string, readonly features: string[]) {
    super();
  }
}
