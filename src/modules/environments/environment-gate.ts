import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../../common/config/app-config';
import { InjectConfig } from '../../common/config/config.decorators';
import { BadRequestError, NotFoundError } from '../../common/errors/app-error';
import { UnitOfWork } from '../../database/unit-of-work';
import { EvidenceLog } from '../evidence-log/evidence-log.module';
import { Outbox } from '../outbox/outbox.module';
import { PolicyGate } from '../policies/policies.module';
import { ComplianceEvaluator } from './compliance/compliance-evaluator';
import { logEntries } from './domain/environment-log';
import { artifactKeyText } from './domain/report-summary';
import { snapshotEvents } from './domain/snapshot-events';
import { planSnapshot } from './domain/snapshot-plan';
import { snapshotUrl } from './dto/snapshot.response';
import { EnvironmentEventRepository } from './persistence/environment-event.repository';
import { EnvironmentRecord, EnvironmentRepository } from './persistence/environment.repository';
import { SnapshotRepository } from './persistence/snapshot.repository';
import { LOGICAL } from './types/environment-type';

/** An environment as the gate sees it. */
export interface GateEnvironment {
  id: string;
  name: string;
  type: string;
  lastSnapshot: number;
  requireProvenance: boolean;
}

const view = (e: EnvironmentRecord): GateEnvironment => ({ id: e.id, name: e.name, type: e.type, lastSnapshot: e.last_snapshot, requireProvenance: e.require_provenance });

/**
 * The environments module's facade for the deployment gate (policies attached, allow-lists, assertions,
 * admission): finds environments by name, and takes a snapshot of the same content judged anew when what
 * judges it changed. That snapshot is taken like a report's (the same plan, runs, events and row updates:
 * see ReportEnvironmentHandler), with the latest snapshot's artifacts and instances as the content.
 */
@Injectable()
export class EnvironmentGate {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly environments: EnvironmentRepository,
    private readonly snapshots: SnapshotRepository,
    private readonly compliance: ComplianceEvaluator,
    private readonly policies: PolicyGate,
    private readonly outbox: Outbox,
    private readonly eventLog: EnvironmentEventRepository,
    private readonly evidenceLog: EvidenceLog,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async find(orgId: string, name: string): Promise<GateEnvironment | null> {
    const env = await this.environments.find(orgId, name);
    return env ? view(env) : null;
  }

  /** Every environment not archived (logical ones too), by name. */
  listActive(orgId: string): Promise<Array<{ id: string; name: string; type: string }>> {
    return this.environments.listActive(orgId);
  }

  /** Every environment that can take policies (not archived, not logical), by name. */
  async listJudgeable(orgId: string): Promise<Array<{ id: string; name: string; type: string }>> {
    return (await this.environments.listActive(orgId)).filter((e) => e.type !== LOGICAL);
  }

  /** 404 when there is no such environment. */
  async require(orgId: string, name: string): Promise<GateEnvironment> {
    const env = await this.find(orgId, name);
    if (!env) throw new NotFoundError(`Environment '${name}' not found`);
    return env;
  }

  /**
   * Runs `change` (attach, detach, allow ...) in one transaction with the environment row locked, then, when
   * the environment has a snapshot, records the next one: the same artifacts judged by what is attached now.
   * Returns the new snapshot's number, or null when there was none to judge again.
   */
  async changeRules(
    scope: { orgId: string; orgName: string; actor: string },
    envName: string,
    change: (manager: EntityManager, env: GateEnvironment) => Promise<void>,
  ): Promise<number | null> {
    const { orgId, orgName, actor } = scope;
    return this.uow.run(async (manager) => {
      const env = await this.environments.lock(manager, orgId, envName);
      if (!env) throw new NotFoundError(`Environment '${envName}' not found`);
      if (env.type === LOGICAL) throw new BadRequestError(`Environment '${env.name}' is a logical environment: policies apply to physical environments`);
      if (env.archived_at) throw new BadRequestError(`Environment '${env.name}' is archived: its rules no longer change`);
      await change(manager, view(env));
      if (env.last_snapshot === 0) return null;
      const rules = await this.policies.rulesOf(orgId, env.id, manager);
      const runs = await this.snapshots.openRunsWithInstances(manager, orgId, env.id);
      const evaluated = await this.compliance.evaluate(orgId, runs, env.require_provenance, rules);
      const plan = planSnapshot(await this.snapshots.openRuns(manager, orgId, env.id), evaluated);
      const number = env.last_snapshot + 1;
      const instanceCount = runs.reduce((n, r) => n + r.instanceCount, 0);
      const createdAt = await this.snapshots.insertSnapshot(manager, {
        orgId,
        environmentId: env.id,
        number,
        setHash: env.set_hash!,
        scaleHash: env.scale_hash!,
        artifactCount: runs.length,
        instanceCount,
        compliant: plan.compliant,
        counts: plan.counts,
        reportedBy: actor,
        appliedPolicies: rules?.policies.map((p) => ({ name: p.name, version: p.version })),
      });
      await this.snapshots.endRuns(manager, orgId, env.id, plan.close, number);
      const instances = new Map(runs.map((r) => [artifactKeyText(r.name, r.fingerprint), r.instances]));
      await this.snapshots.beginRuns(
        manager,
        orgId,
        env.id,
        number,
        plan.open.map((a) => ({ ...a, instances: instances.get(artifactKeyText(a.name, a.fingerprint)) ?? [] })),
      );
      await this.environments.recordSnapshot(manager, env.id, {
        number,
        createdAt,
        setHash: env.set_hash!,
        scaleHash: env.scale_hash!,
        compliant: plan.compliant,
      });
      const events = snapshotEvents(plan, {
        environment: env.name,
        environmentType: env.type,
        logicalEnvironments: await this.environments.logicalNamesOf(manager, orgId, env.id),
        includeScaling: env.include_scaling,
        number,
        timestamp: createdAt,
        htmlUrl: snapshotUrl(this.config.publicBaseUrl, orgName, env.name, number),
        artifactCount: runs.length,
        instanceCount,
        wasCompliant: env.compliant,
      });
      await this.outbox.append(manager, ...events.map((e) => ({ orgId, ...e })));
      // The environment's event log sees a snapshot judged anew like one a report made (compliance changes).
      await this.eventLog.append(manager, orgId, env.id, number, logEntries(events));
      // The snapshot is a record of the evidence log (kind `environment_snapshot`, read through its snapshot route).
      await this.evidenceLog.appendRef(manager, [
        { orgId, kind: 'environment_snapshot', id: `${env.id}#${number}`, ref: { org: orgName, environment: env.name, snapshot: number } },
      ]);
      return number;
    });
  }
}
