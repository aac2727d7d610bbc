import { Module } from '@nestjs/common';
import { SnapshotLogRenderer } from './snapshot-log-renderer';
import { EvidenceLogModule } from '../evidence-log/evidence-log.module';
import { ArchiveEnvironmentHandler } from './commands/archive-environment/archive-environment.handler';
import { RenameEnvironmentHandler } from './commands/rename-environment/rename-environment.handler';
import { EnvironmentLifecycleController } from './environment-lifecycle.controller';
import { EnvironmentRenameRedirect } from './environment-rename-redirect';
import { EnvironmentRenameRepository } from './persistence/environment-rename.repository';
import { ArtifactsModule } from '../artifacts/artifacts.module';
import { FlowsModule } from '../flows/flows.module';
import { OutboxModule } from '../outbox/outbox.module';
import { PoliciesModule } from '../policies/policies.module';
import { TagsModule, tagTargetProvider } from '../tags/tags.module';
import { TrailsModule } from '../trails/trails.module';
import { CreateEnvironmentHandler } from './commands/create-environment/create-environment.handler';
import { JoinEnvironmentHandler } from './commands/join-environment/join-environment.handler';
import { ReportEnvironmentHandler } from './commands/report-environment/report-environment.handler';
import { ComplianceEvaluator } from './compliance/compliance-evaluator';
import { EnvironmentGate } from './environment-gate';
import { EnvDiffController } from './env-diff.controller';
import { EnvironmentsController } from './environments.controller';
import { EnvironmentLogController } from './environment-log.controller';
import { EnvironmentEventReader } from './persistence/environment-event.reader';
import { EnvironmentEventRepository } from './persistence/environment-event.repository';
import { GetAuditLogHandler } from './queries/get-audit-log/get-audit-log.handler';
import { ListEnvironmentEventsHandler } from './queries/list-environment-events/list-environment-events.handler';
import { EnvironmentReader } from './persistence/environment.reader';
import { EnvironmentRepository } from './persistence/environment.repository';
import { SnapshotReader } from './persistence/snapshot.reader';
import { SnapshotRepository } from './persistence/snapshot.repository';
import { DiffEnvironmentsHandler } from './queries/diff-environments/diff-environments.handler';
import { DiffSnapshotsHandler } from './queries/diff-snapshots/diff-snapshots.handler';
import { GetEnvironmentHandler } from './queries/get-environment/get-environment.handler';
import { GetSnapshotHandler } from './queries/get-snapshot/get-snapshot.handler';
import { ListEnvironmentsHandler } from './queries/list-environments/list-environments.handler';
import { ListSnapshotsHandler } from './queries/list-snapshots/list-snapshots.handler';
import { SnapshotsController } from './snapshots.controller';
import { EnvironmentTypeRegistry } from './types/environment-type.registry';

/**
 * Environments (physical and logical), their snapshots and what runs in them. Owns `environments`,
 * `environment_members`, `environment_snapshots` and `environment_artifact_runs`. Physical types are a
 * registry (`types/`, one module each, registered with `EnvironmentTypeModule.register`).
 * Public surface: EnvironmentTypeRegistry (for type modules). Events go to the outbox (README.md).
 */
@Module({
  imports: [ArtifactsModule, TrailsModule, OutboxModule, TagsModule, PoliciesModule, FlowsModule, EvidenceLogModule],
  controllers: [EnvironmentsController, SnapshotsController, EnvDiffController, EnvironmentLogController, EnvironmentLifecycleController],
  providers: [
    SnapshotLogRenderer,
    EnvironmentTypeRegistry,
    EnvironmentRepository,
    EnvironmentReader,
    SnapshotRepository,
    SnapshotReader,
    ComplianceEvaluator,
    EnvironmentGate,
    CreateEnvironmentHandler,
    JoinEnvironmentHandler,
    ReportEnvironmentHandler,
    GetEnvironmentHandler,
    ListEnvironmentsHandler,
    GetSnapshotHandler,
    ListSnapshotsHandler,
    DiffSnapshotsHandler,
    DiffEnvironmentsHandler,
    // The event log (environment-log.controller.ts).
    EnvironmentEventRepository,
    EnvironmentEventReader,
    ListEnvironmentEventsHandler,
    GetAuditLogHandler,
    // Archive and rename (environment-lifecycle.controller.ts); an old name redirects to the new one.
    EnvironmentRenameRepository,
    ArchiveEnvironmentHandler,
    RenameEnvironmentHandler,
    EnvironmentRenameRedirect,
    // Environments are tagged by name (`PATCH /tags/{org}/env/{name}`).
    tagTargetProvider<EnvironmentRepository>('environment', EnvironmentRepository, (envs) => (manager, orgId, name, update) =>
      envs.updateTags(manager, orgId, name, update),
    ),
  ],
  exports: [EnvironmentTypeRegistry, EnvironmentGate],
})
export class EnvironmentsModule {}

export { EnvironmentTypeRegistry } from './types/environment-type.registry';
export type { EnvironmentTypeDefinition, ReportBody } from './types/environment-type';
export { EnvironmentGate } from './environment-gate';
export type { GateEnvironment } from './environment-gate';
