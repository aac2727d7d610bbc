import { HealthModule } from './health/health.module';
import { IdentityModule } from './identity/identity.module';
import { OrganizationsModule } from './organizations/organizations.module';

/** Every feature module of the monolith. A new resource (or attestation type, environment type ...) is one line here. */
export const FEATURE_MODULES = [HealthModule, IdentityModule, OrganizationsModule];
