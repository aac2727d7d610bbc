import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BadRequestError, NotFoundError } from '../../../../common/errors/app-error';
import { EvaluationRepository } from '../../persistence/evaluation.repository';
import { EvaluationRunner } from '../../running/evaluation-runner';
import { ReplayEvaluationCommand, ReplayResponse } from './replay-evaluation.command';

@CommandHandler(ReplayEvaluationCommand)
export class ReplayEvaluationHandler implements ICommandHandler<ReplayEvaluationCommand> {
  constructor(
    private readonly evaluations: EvaluationRepository,
    private readonly runner: EvaluationRunner,
  ) {}

  async execute(command: ReplayEvaluationCommand): Promise<ReplayResponse> {
    const { orgId, id } = command.props;
    const row = await this.evaluations.find(orgId, id);
    if (!row) throw new NotFoundError(`Evaluation '${id}' not found`);
    if (row.status === 'pending') throw new BadRequestError(`Evaluation '${id}' has not run yet`, { id: 'is pending' });
    const again = await this.runner.rerun(row);
    const inputSame = again.inputDigest === row.input_digest;
    if (row.status === 'failed') {
      const kind = again.error?.kind ?? null;
      return {
        evaluation_id: id,
        identical: inputSame && kind === row.error!.kind,
        input_digest: { recorded: row.input_digest, replayed: again.inputDigest },
        result_digest: { recorded: null, replayed: again.resultDigest ?? null },
        error_kind: { recorded: row.error!.kind, replayed: kind },
      };
    }
    return {
      evaluation_id: id,
      identical: inputSame && again.resultDigest === row.result_digest,
      input_digest: { recorded: row.input_digest, replayed: again.inputDigest },
      result_digest: { recorded: row.result_digest, replayed: again.resultDigest ?? null },
    };
  }
}
