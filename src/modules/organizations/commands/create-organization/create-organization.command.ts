import { Command } from '@nestjs/cqrs';
import { OrganizationResponse } from '../../dto/organization.response';

export interface CreatedOrganization extends OrganizationResponse {
  admin: { email: string; api_key: string };
}

export class CreateOrganizationCommand extends Command<CreatedOrganization> {
  constructor(
    readonly name: string,
    readonly region: string,
    readonly features: string[],
    readonly adminEmail: string,
  ) {
    super();
  }
}
