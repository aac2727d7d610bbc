import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { BadRequestError, NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { MomentSelector } from '../../../../common/moments/moment-expression';
import { parseSnapshotExpression, SnapshotExpressionError } from '../../domain/snapshot-expression';
import { diffRuns } from '../../domain/snapshot-view';
import { SnapshotDiffResponse, toDiffArtifact } from '../../dto/snapshot.response';
import { EnvironmentReader } from '../../persistence/environment.reader';
import { SnapshotReader } from '../../persistence/snapshot.reader';
import { LOGICAL } from '../../types/environment-type';
import { DiffSnapshotsQuery } from './diff-snapshots.query';

/** 400 malformed expression(s) -> 404 environment -> 404 a side selects no snapshot. */
@QueryHandler(DiffSnapshotsQuery)
export class DiffSnapshotsHandler implements IQueryHandler<DiffSnapshotsQuery> {
  constructor(
    private readonly environments: EnvironmentReader,
    private readonly snapshots: SnapshotReader,
  ) {}

  async execute(query: DiffSnapshotsQuery): Promise<SnapshotDiffResponse> {
    const { orgId, envName, from, to } = query.props;
    const errors: Record<string, string> = {};
    const parse = (key: string, text: string): MomentSelector | null => {
      try {
        return parseSnapshotExpression(text);
      } catch (error) {
        if (!(error instanceof SnapshotExpressionError)) throw error;
        errors[key] = error.message;
        return null;
      }
    };
    const a = parse('query.from', from);
    const b = parse('query.to', to);
    if (!a || !b) throw new ValidationError(errors);
    const env = await this.environments.find(orgId, envName);
    if (!env) throw new NotFoundError(`Environment '${envName}' not found`);
    if (env.type === LOGICAL) throw new BadRequestError(`Environment '${envName}' is logical: it has no snapshots of its own to compare`);
    const side = async (selector: MomentSelector, expression: string) => {
      const number = await this.snapshots.resolve(orgId, env.id, env.last_snapshot, selector);
      const row = number === null ? null : await this.snapshots.snapshot(orgId, env.id, number);
      if (!row) throw new NotFoundError(`Snapshot '${expression}' not found in environment '${envName}'`);
      return { row, runs: await this.snapshots.runsAt(orgId, env.id, row.number) };
    };
    const [x, y] = [await side(a, from), await side(b, to)];
    const diff = diffRuns(x.runs, y.runs);
    return {
      environment: env.name,
      from: { expression: from, index: x.row.number, timestamp: x.row.created_at },
      to: { expression: to, index: y.row.number, timestamp: y.row.created_at },
      added: diff.added.map(toDiffArtifact),
      removed: diff.removed.map(toDiffArtifact),
      changed: diff.changed.map(toDiffArtifact),
    };
  }
}
