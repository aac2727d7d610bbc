import { Global, Module } from '@nestjs/common';
import { OrgDirectory } from '../../common/auth/auth-ports';
import { AdminOrganizationsController } from './admin-organizations.controller';
import { OrganizationsController } from './organizations.controller';
import { GetOrganizationHandler } from './queries/get-organization/get-organization.handler';
import { AddMemberHandler } from './commands/add-member/add-member.handler';
import { CreateOrganizationHandler } from './commands/create-organization/create-organization.handler';
import { UpdateOrganizationHandler } from './commands/update-organization/update-organization.handler';
import { OrganizationDirectory } from './persistence/organization-directory';

/** Organizations, users and memberships; the operator bootstrap routes; the org lookup the guards use. */
@Global()
@Module({
  controllers: [AdminOrganizationsController, OrganizationsController],
  providers: [
    OrganizationDirectory,
    { provide: OrgDirectory, useExisting: OrganizationDirectory },
    CreateOrganizationHandler,
    UpdateOrganizationHandler,
    AddMemberHandler,
    GetOrganizationHandler,
  ],
  exports: [OrgDirectory, OrganizationDirectory],
})
export class OrganizationsModule {}
