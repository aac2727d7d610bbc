import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';

export interface ReplayResponse {
  evaluation_id: string;
  /** the stored input and result digests were both reproduced */
  identical: boolean;
  input_digest: { recorded: string | null; replayed: string | null };
  result_digest: { recorded: string | null; replayed: string | null };
  /** for a failed evaluation: whether the same error kind came out again */
  error_kind?: { recorded: string; replayed: string | null };
}

export interface ReplayEvaluationProps extends ActingScope {
  id: string;
}

/** Rebuild an evaluation's input from its stored moments, run its stored bundle again, compare digests. */
export class ReplayEvaluationCommand extends OrgCommand<ReplayEvaluationProps, ReplayResponse> {}
