import { Command } from '@nestjs/cqrs';
import { OrganizationResponse } from '../../dto/organization.response';

export interface CreatedOrganization extends OrganizationResponse {
  admin: { email: string; api_key: string };
}

export interface CreateOrganizationProps {
  name: string;
  /** absent: the region this deployment serves */
  region?: string;
  features: string[];
  adminEmail: string;
}

export class CreateOrganizationCommand extends Command<CreatedOrganization> {
  constructor(readonly props: Readonly<CreateOrganizationProps>) {
    super();
  }
}
