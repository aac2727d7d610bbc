import { Module } from '@nestjs/common';
import { OrgDirectory } from '../../common/auth/auth-ports';
import { CredentialEvents, IdentityModule } from '../identity/identity.module';
import { AdminOrganizationsController } from './admin-organizations.controller';
import { AddMemberHandler } from './commands/add-member/add-member.handler';
import { CreateOrganizationHandler } from './commands/create-organization/create-organization.handler';
import { UpdateOrganizationHandler } from './commands/update-organization/update-organization.handler';
import { OrganizationsController } from './organizations.controller';
import { OrganizationSettingsController } from './organization-settings.controller';
import { UserController } from './user.controller';
import { SetDefaultOrganizationHandler } from './commands/set-default-organization/set-default-organization.handler';
import { SetExperimentalFeaturesHandler } from './commands/set-experimental-features/set-experimental-features.handler';
import { MembershipRepository } from './persistence/membership.repository';
import { OrganizationReader } from './persistence/organization.reader';
import { OrganizationRepository } from './persistence/organization.repository';
import { GetOrganizationHandler } from './queries/get-organization/get-organization.handler';

/**
 * Organizations and memberships (tables `organizations`, `memberships`); the operator bootstrap routes.
 * Public surface: OrgDirectory, the port the organization guard resolves orgs and roles through.
 */
@Module({
  imports: [IdentityModule],
  controllers: [AdminOrganizationsController, OrganizationsController, OrganizationSettingsController, UserController],
  providers: [
    OrganizationRepository,
    MembershipRepository,
    OrganizationReader,
    { provide: OrgDirectory, useExisting: OrganizationReader },
    // A personal key's events go to every org of its user: identity asks the memberships this module owns.
    {
      provide: 'veritrail:credential-events:memberships',
      inject: [CredentialEvents, MembershipRepository],
      useFactory: (events: CredentialEvents, memberships: MembershipRepository) => {
        events.registerMemberships({ orgsOf: (manager, userId) => memberships.orgsOf(manager, userId) });
        return true;
      },
    },
    CreateOrganizationHandler,
    UpdateOrganizationHandler,
    AddMemberHandler,
    GetOrganizationHandler,
    SetDefaultOrganizationHandler,
    SetExperimentalFeaturesHandler,
  ],
  exports: [OrgDirectory],
})
export class OrganizationsModule {}
