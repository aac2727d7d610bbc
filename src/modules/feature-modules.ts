import { ActionsModule } from './actions/actions.module';
import { ArtifactsModule } from './artifacts/artifacts.module';
import { AttestationsModule } from './attestations/attestations.module';
import { GenericAttestationModule } from './attestations/types/generic/generic-attestation.module';
import { FlowsModule } from './flows/flows.module';
import { HealthModule } from './health/health.module';
import { IdentityModule } from './identity/identity.module';
import { LedgerModule } from './ledger/ledger.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { OutboxModule } from './outbox/outbox.module';
import { ReposModule } from './repos/repos.module';
import { TrailsModule } from './trails/trails.module';

/**
 * Every feature module of the monolith. Each declares its own imports; listing one here only mounts its
 * routes. A new resource (or attestation type, environment type ...) is one line here.
 */
export const FEATURE_MODULES = [
  HealthModule,
  IdentityModule,
  OrganizationsModule,
  FlowsModule,
  OutboxModule,
  LedgerModule,
  ReposModule,
  TrailsModule,
  ArtifactsModule,
  AttestationsModule,
  GenericAttestationModule,
  ActionsModule,
];
