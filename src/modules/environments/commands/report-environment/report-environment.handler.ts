import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { BadRequestError, NotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { EvidenceLog } from '../../../evidence-log/evidence-log.module';
import { Outbox } from '../../../outbox/outbox.module';
import { PolicyGate } from '../../../policies/policies.module';
import { ComplianceEvaluator } from '../../compliance/compliance-evaluator';
import { artifactKeyText, instancesByArtifact, ReportSummary, summarizeReport } from '../../domain/report-summary';
import { snapshotEvents } from '../../domain/snapshot-events';
import { logEntries } from '../../domain/environment-log';
import { EnvironmentEventRepository } from '../../persistence/environment-event.repository';
import { planSnapshot } from '../../domain/snapshot-plan';
import { EnvironmentRecord, EnvironmentRepository } from '../../persistence/environment.repository';
import { SnapshotRepository } from '../../persistence/snapshot.repository';
import { LOGICAL } from '../../types/environment-type';
import { EnvironmentTypeRegistry } from '../../types/environment-type.registry';
import { snapshotUrl } from '../../dto/snapshot.response';
import { ReportEnvironmentCommand, ReportOutcome } from './report-environment.command';

/**
 * A report makes snapshot N+1 only when what runs changed: the (artifact name, digest) set, or, for an
 * environment that includes scaling, an instance count. The check is a hash of the normalized report against
 * the latest snapshot's hash kept on the environment row: an unchanged report reads one row and writes nothing
 * (but `last_reported_at`, at most once a minute). A changed one is evaluated (provenance and compliance of
 * every artifact) before the environment row is taken, then checked again under the row lock, so concurrent
 * reports of one environment make one snapshot each at most and never two for the same content.
 */
@CommandHandler(ReportEnvironmentCommand)
export class ReportEnvironmentHandler implements ICommandHandler<ReportEnvironmentCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly registry: EnvironmentTypeRegistry,
    private readonly environments: EnvironmentRepository,
    private readonly snapshots: SnapshotRepository,
    private readonly compliance: ComplianceEvaluator,
    private readonly outbox: Outbox,
    private readonly policies: PolicyGate,
    private readonly eventLog: EnvironmentEventRepository,
    private readonly evidenceLog: EvidenceLog,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(command: ReportEnvironmentCommand): Promise<ReportOutcome> {
    const { orgId, orgName, envName, type, report, actor } = command.props;
    // The body's own `type`, when sent, was checked against the route by the type's DTO.
    const summary = summarizeReport(report.artifacts);

    const env = await this.environments.find(orgId, envName);
    if (!env) throw new NotFoundError(`Environment '${envName}' not found`);
    checkType(env, type);
    if (isUnchanged(env, summary)) return this.unchanged(env);

    // The policies attached when the snapshot is taken judge it (none: the rule of environments without policies).
    let rules = await this.policies.rulesOf(orgId, env.id);
    let evaluated = await this.compliance.evaluate(orgId, summary.artifacts, env.require_provenance, rules);
    return this.uow.run(async (manager) => {
      const locked = await this.environments.lock(manager, orgId, envName);
      // Renamed since it was read (the name now free, or another environment's): as if it were not there.
      if (!locked || locked.id !== env.id) throw new NotFoundError(`Environment '${envName}' not found`);
      checkType(locked, type);
      // Inside the transaction that holds the row: another connection would wait for it.
      if (isUnchanged(locked, summary)) return this.unchanged(locked, manager);
      // Settings changed between the read and the lock (provenance required, policies attached or detached):
      // the snapshot is judged by those in force now, not by those read before.
      const current = await this.policies.rulesOf(orgId, env.id);
      if (locked.require_provenance !== env.require_provenance || ruleVersions(current) !== ruleVersions(rules)) {
        rules = current;
        evaluated = await this.compliance.evaluate(orgId, summary.artifacts, locked.require_provenance, rules);
      }
      const plan = planSnapshot(await this.snapshots.openRuns(manager, orgId, locked.id), evaluated);
      const number = locked.last_snapshot + 1;
      const createdAt = await this.snapshots.insertSnapshot(manager, {
        orgId,
        environmentId: locked.id,
        number,
        setHash: summary.setHash,
        scaleHash: summary.scaleHash,
        artifactCount: summary.artifacts.length,
        instanceCount: summary.instanceCount,
        compliant: plan.compliant,
        counts: plan.counts,
        reportedBy: actor,
        appliedPolicies: rules?.policies.map((p) => ({ name: p.name, version: p.version })),
      });
      await this.snapshots.endRuns(manager, orgId, locked.id, plan.close, number);
      const instances = instancesByArtifact(this.registry.get(type)!.items(report));
      await this.snapshots.beginRuns(
        manager,
        orgId,
        locked.id,
        number,
        plan.open.map((a) => ({ ...a, instances: instances.get(artifactKeyText(a.name, a.fingerprint)) ?? [] })),
      );
      await this.environments.recordSnapshot(manager, locked.id, {
        number,
        createdAt,
        setHash: summary.setHash,
        scaleHash: summary.scaleHash,
        compliant: plan.compliant,
      });
      const events = snapshotEvents(plan, {
        environment: locked.name,
        environmentType: locked.type,
        logicalEnvironments: await this.environments.logicalNamesOf(manager, orgId, locked.id),
        includeScaling: locked.include_scaling,
        number,
        timestamp: createdAt,
        htmlUrl: snapshotUrl(this.config.publicBaseUrl, orgName, locked.name, number),
        artifactCount: summary.artifacts.length,
        instanceCount: summary.instanceCount,
        wasCompliant: locked.last_snapshot === 0 ? null : locked.compliant,
      });
      await this.outbox.append(manager, ...events.map((e) => ({ orgId, ...e })));
      await this.eventLog.append(manager, orgId, locked.id, number, logEntries(events));
      // The snapshot is a record of the evidence log (kind `environment_snapshot`, read through its snapshot route).
      await this.evidenceLog.appendRef(manager, [
        { orgId, kind: 'environment_snapshot', id: `${locked.id}#${number}`, ref: { org: orgName, environment: locked.name, snapshot: number } },
      ]);
      return { created: true, snapshot: number, message: `Snapshot ${number} of environment '${locked.name}' created` };
    });
  }

  private async unchanged(env: EnvironmentRecord, manager?: EntityManager): Promise<ReportOutcome> {
    await this.environments.touchReported(env.id, manager);
    return {
      created: false,
      snapshot: env.last_snapshot,
      message: `Report processed: nothing changed, environment '${env.name}' stays at snapshot ${env.last_snapshot}`,
    };
  }
}

function checkType(env: EnvironmentRecord, type: string): void {
  if (env.archived_at) throw new BadRequestError(`Environment '${env.name}' is archived: it takes no reports`);
  if (env.type === LOGICAL) throw new BadRequestError(`Environment '${env.name}' is a logical environment: logical environments take no reports`);
  if (env.type !== type) throw new BadRequestError(`Environment '${env.name}' is of type ${env.type}, not ${type}`);
}

/** Unchanged: the same content as the latest snapshot, counts included when the environment includes scaling. */
function isUnchanged(env: EnvironmentRecord, summary: ReportSummary): boolean {
  if (env.last_snapshot === 0) return false;
  const latest = env.include_scaling ? env.scale_hash : env.set_hash;
  return latest !== null && latest.equals(env.include_scaling ? summary.scaleHash : summary.setHash);
}

/** The policies and allow-list entries a snapshot is judged by, as one comparable text. */
function ruleVersions(rules: Awaited<ReturnType<PolicyGate['rulesOf']>>): string {
  if (!rules) return '';
  return JSON.stringify([rules.policies.map((p) => `${p.name}@${p.version}`), [...rules.allowlist.entries()]]);
}
