import { ActionsModule } from './actions/actions.module';
import { ArtifactsModule } from './artifacts/artifacts.module';
import { ArtifactCatalogModule } from './artifact-catalog/artifact-catalog.module';
import { SearchModule } from './search/search.module';
import { AttestationsModule } from './attestations/attestations.module';
import { DecisionAttestationModule } from './attestations/types/decision/decision-attestation.module';
import { CustomAttestationModule } from './attestations/types/custom/custom-attestation.module';
import { OverrideAttestationModule } from './attestations/types/override/override-attestation.module';
import { CustomAttestationTypesModule } from './custom-attestation-types/custom-attestation-types.module';
import { EnvironmentsModule } from './environments/environments.module';
import { DockerEnvironmentTypeModule } from './environments/types/docker/docker-environment-type.module';
import { AzureAppsEnvironmentTypeModule } from './environments/types/azure-apps/azure-apps-environment-type.module';
import { EcsEnvironmentTypeModule } from './environments/types/ecs/ecs-environment-type.module';
import { K8sEnvironmentTypeModule } from './environments/types/k8s/k8s-environment-type.module';
import { LambdaEnvironmentTypeModule } from './environments/types/lambda/lambda-environment-type.module';
import { S3EnvironmentTypeModule } from './environments/types/s3/s3-environment-type.module';
import { ServerEnvironmentTypeModule } from './environments/types/server/server-environment-type.module';
import { GenericAttestationModule } from './attestations/types/generic/generic-attestation.module';
import { JiraAttestationModule } from './attestations/types/jira/jira-attestation.module';
import { LaunchDarklyAttestationModule } from './attestations/types/launch-darkly/launch-darkly-attestation.module';
import { JunitAttestationModule } from './attestations/types/junit/junit-attestation.module';
import { PullRequestAttestationModule } from './attestations/types/pull-request/pull-request-attestation.module';
import { SnykAttestationModule } from './attestations/types/snyk/snyk-attestation.module';
import { SonarAttestationModule } from './attestations/types/sonar/sonar-attestation.module';
import { ControlsModule } from './controls/controls.module';
import { EvaluationsModule } from './evaluations/evaluations.module';
import { EvidenceLogModule } from './evidence-log/evidence-log.module';
import { AuditPackagesModule } from './audit-packages/audit-packages.module';
import { FlowsModule } from './flows/flows.module';
import { GateModule } from './gate/gate.module';
import { HealthModule } from './health/health.module';
import { IdentityModule } from './identity/identity.module';
import { LedgerModule } from './ledger/ledger.module';
import { McpModule } from './mcp/mcp.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { OutboxModule } from './outbox/outbox.module';
import { PoliciesModule } from './policies/policies.module';
import { ReposModule } from './repos/repos.module';
import { ServiceAccountsModule } from './service-accounts/service-accounts.module';
import { TagsModule } from './tags/tags.module';
import { TrailsModule } from './trails/trails.module';
import { WebUiModule } from './web-ui/web-ui.module';

/**
 * Every feature module of the monolith. Each declares its own imports; listing one here only mounts its
 * routes. A new resource (or attestation type, environment type ...) is one line here.
 */
export const FEATURE_MODULES = [
  HealthModule,
  // First after the probes: Express tries routes in the order they were registered, and the attestation route is
  // the hot ingest path (each route registered before it costs every attestation a regular-expression test).
  GenericAttestationModule,
  IdentityModule,
  ServiceAccountsModule,
  OrganizationsModule,
  FlowsModule,
  OutboxModule,
  LedgerModule,
  TagsModule,
  ReposModule,
  ControlsModule,
  TrailsModule,
  ArtifactsModule,
  AttestationsModule,
  DecisionAttestationModule,
  JunitAttestationModule,
  SnykAttestationModule,
  PullRequestAttestationModule,
  JiraAttestationModule,
  SonarAttestationModule,
  LaunchDarklyAttestationModule,
  CustomAttestationTypesModule,
  CustomAttestationModule,
  OverrideAttestationModule,
  EvaluationsModule,
  PoliciesModule,
  EnvironmentsModule,
  S3EnvironmentTypeModule,
  K8sEnvironmentTypeModule,
  EcsEnvironmentTypeModule,
  DockerEnvironmentTypeModule,
  ServerEnvironmentTypeModule,
  LambdaEnvironmentTypeModule,
  AzureAppsEnvironmentTypeModule,
  ActionsModule,
  GateModule,
  ArtifactCatalogModule,
  SearchModule,
  EvidenceLogModule,
  AuditPackagesModule,
  McpModule,
  WebUiModule,
];
