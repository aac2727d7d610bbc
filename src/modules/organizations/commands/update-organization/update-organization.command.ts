import { Command } from '@nestjs/cqrs';
import { OrganizationResponse } from '../../dto/organization.response';

export interface UpdateOrganizationProps {
  orgName: string;
  features: string[];
}

/** Replaces the org's beta feature set. */
export class UpdateOrganizationCommand extends Command<OrganizationResponse> {
  constructor(readonly props: Readonly<UpdateOrganizationProps>) {
    super();
  }
}
