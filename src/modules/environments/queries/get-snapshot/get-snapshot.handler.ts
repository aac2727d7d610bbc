import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { MomentSelector } from '../../../../common/moments/moment-expression';
import { logicalSelector, parseSnapshotExpression, SnapshotExpressionError } from '../../domain/snapshot-expression';
import { snapshotEntries, StoredRun } from '../../domain/snapshot-view';
import { environmentUrl } from '../../dto/environment.response';
import { Links, SnapshotResponse, snapshotUrl, toSnapshotArtifact } from '../../dto/snapshot.response';
import { EnvironmentReader, EnvironmentRow } from '../../persistence/environment.reader';
import { SnapshotReader } from '../../persistence/snapshot.reader';
import { LOGICAL } from '../../types/environment-type';
import { EnvironmentTypeRegistry } from '../../types/environment-type.registry';
import { GetSnapshotQuery } from './get-snapshot.query';

/** 400 malformed expression -> 404 environment -> 404 no snapshot selected. */
@QueryHandler(GetSnapshotQuery)
export class GetSnapshotHandler implements IQueryHandler<GetSnapshotQuery> {
  constructor(
    private readonly environments: EnvironmentReader,
    private readonly snapshots: SnapshotReader,
    private readonly registry: EnvironmentTypeRegistry,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: GetSnapshotQuery): Promise<SnapshotResponse> {
    const { orgId, orgName, envName, expression } = query.props;
    const selector = parse(expression);
    const env = await this.environments.find(orgId, envName);
    if (!env) throw new NotFoundError(`Environment '${envName}' not found`);
    const links = { base: this.config.publicBaseUrl, org: orgName };
    if (env.type === LOGICAL) return this.logicalView(orgId, env, checked(() => logicalSelector(selector)), links);
    const number = await this.snapshots.resolve(orgId, env.id, env.last_snapshot, selector);
    const row = number === null ? null : await this.snapshots.snapshot(orgId, env.id, number);
    if (!row) throw new NotFoundError(`Snapshot '${expression}' not found in environment '${envName}'`);
    const entries = snapshotEntries(await this.snapshots.runsAround(orgId, env.id, row.number), row.number);
    const present = this.presenter(env.type);
    return {
      index: row.number,
      environment: env.name,
      is_latest: row.number === env.last_snapshot,
      next_snapshot_timestamp: row.next_created_at,
      artifact_compliance_count: { true: row.compliant_count, false: row.non_compliant_count, null: row.unknown_count },
      timestamp: row.created_at,
      type: env.type,
      compliant: row.compliant,
      html_url: snapshotUrl(links.base, orgName, env.name, row.number),
      artifacts: entries.map((e) => toSnapshotArtifact(e, present, links)),
      applied_policies: row.applied_policies ?? [],
    };
  }

  /** The union of each member's snapshot at the instant the selector names (members without one add nothing). */
  private async logicalView(orgId: string, env: EnvironmentRow, selector: MomentSelector, links: Links): Promise<SnapshotResponse> {
    const members: NonNullable<SnapshotResponse['members']> = [];
    const artifacts: SnapshotResponse['artifacts'] = [];
    const counts = { true: 0, false: 0, null: 0 };
    for (const member of env.members) {
      const number = await this.snapshots.resolve(orgId, member.id, member.last_snapshot, selector);
      const row = number === null ? null : await this.snapshots.snapshot(orgId, member.id, number);
      if (!row) continue;
      members.push({ environment: member.name, index: row.number, timestamp: row.created_at, compliant: row.compliant });
      counts.true += row.compliant_count;
      counts.false += row.non_compliant_count;
      counts.null += row.unknown_count;
      const present = this.presenter(member.type);
      const entries = snapshotEntries(await this.snapshots.runsAround(orgId, member.id, row.number), row.number).filter((e) => e.now > 0);
      artifacts.push(...entries.map((e) => toSnapshotArtifact(e, present, links, member.name)));
    }
    const latest = selector.kind === 'back';
    return {
      index: 0,
      environment: env.name,
      is_latest: latest,
      next_snapshot_timestamp: null,
      artifact_compliance_count: counts,
      timestamp: members.reduce((t, m) => Math.max(t, m.timestamp), 0),
      type: LOGICAL,
      compliant: members.every((m) => m.compliant),
      html_url: environmentUrl(links.base, links.org, env.name),
      artifacts,
      applied_policies: [],
      members,
    };
  }

  private presenter(type: string): (run: StoredRun) => Record<string, unknown> {
    const definition = this.registry.get(type);
    return (run) => (definition ? definition.present(run.instances) : { pods: null });
  }
}

function parse(expression: string): MomentSelector {
  return checked(() => parseSnapshotExpression(expression));
}

function checked<T>(f: () => T): T {
  try {
    return f();
  } catch (error) {
    if (error instanceof SnapshotExpressionError) throw new ValidationError({ snapshot_expression: error.message });
    throw error;
  }
}
