import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { BadRequestError, NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { MomentSelector } from '../../../../common/moments/moment-expression';
import { parseSnappish, SnapshotExpressionError } from '../../domain/snapshot-expression';
import { DiffEntry, diffRuns, StoredRun } from '../../domain/snapshot-view';
import { EnvironmentReader } from '../../persistence/environment.reader';
import { SnapshotReader } from '../../persistence/snapshot.reader';
import { LOGICAL } from '../../types/environment-type';
import { CliDiffArtifact, CliDiffResponse, DiffEnvironmentsQuery } from './diff-environments.query';

/**
 * The open-source CLI's `kosli diff snapshots`: only in the first, only in the second, scaled, not changed.
 * 400 malformed snappish -> 404 environment -> 404 snapshot; a logical environment is 400.
 */
@QueryHandler(DiffEnvironmentsQuery)
export class DiffEnvironmentsHandler implements IQueryHandler<DiffEnvironmentsQuery> {
  constructor(
    private readonly environments: EnvironmentReader,
    private readonly snapshots: SnapshotReader,
  ) {}

  async execute(query: DiffEnvironmentsQuery): Promise<CliDiffResponse> {
    const errors: Record<string, string> = {};
    const parse = (key: string, text: string) => {
      try {
        return parseSnappish(text);
      } catch (error) {
        if (!(error instanceof SnapshotExpressionError)) throw error;
        errors[`query.${key}`] = error.message;
        return null;
      }
    };
    const a = parse('snappish1', query.props.snappish1);
    const b = parse('snappish2', query.props.snappish2);
    if (!a || !b) throw new ValidationError(errors);
    const [x, y] = [await this.side(query.props.orgId, a, query.props.snappish1), await this.side(query.props.orgId, b, query.props.snappish2)];
    const diff = diffRuns(x.runs, y.runs);
    return {
      snappish1: { snapshot_id: x.id, artifacts: diff.removed.map((e) => cliArtifact(e, 'from')) },
      snappish2: { snapshot_id: y.id, artifacts: diff.added.map((e) => cliArtifact(e, 'to')) },
      changed: { artifacts: diff.changed.map((e) => cliArtifact(e, 'both')) },
      'not-changed': { artifacts: diff.unchanged.map((e) => cliArtifact(e, 'to')) },
    };
  }

  private async side(orgId: string, s: { environment: string; selector: MomentSelector }, text: string): Promise<{ id: string; runs: StoredRun[] }> {
    const env = await this.environments.find(orgId, s.environment);
    if (!env) throw new NotFoundError(`Environment '${s.environment}' not found`);
    if (env.type === LOGICAL) throw new BadRequestError(`Environment '${s.environment}' is logical: it has no snapshots of its own to compare`);
    const number = await this.snapshots.resolve(orgId, env.id, env.last_snapshot, s.selector);
    if (number === null) throw new NotFoundError(`Snapshot '${text}' not found`);
    return { id: `${env.name}#${number}`, runs: await this.snapshots.runsAt(orgId, env.id, number) };
  }
}

function cliArtifact(entry: DiffEntry, side: 'from' | 'to' | 'both'): CliDiffArtifact {
  const run = (side === 'from' ? entry.from : entry.to)!;
  const flow = run.evaluation.flows[0];
  return {
    fingerprint: entry.fingerprint,
    flow: flow?.flow_name ?? '',
    name: entry.name,
    commit_url: flow?.commit_url ?? '',
    most_recent_timestamp: run.instances.reduce((t, i) => Math.max(t, i.started_at), 0),
    instance_count: side === 'both' ? 0 : run.instanceCount,
    s1_instance_count: entry.from_instance_count,
    s2_instance_count: entry.to_instance_count,
    pods: run.instances.map((i) => i.context?.pod_name).filter((p): p is string => typeof p === 'string'),
  };
}
