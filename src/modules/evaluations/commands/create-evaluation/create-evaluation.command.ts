import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { EvaluationResponse } from '../../dto/evaluation.response';
import { DecisionRequest } from '../../persistence/evaluation.repository';

export interface CreateEvaluationProps extends ActingScope {
  trails: Array<{ flow: string; trail: string }>;
  files: Record<string, string>;
  params?: Record<string, unknown> | null;
  decision?: DecisionRequest | null;
}

/** Evaluate a policy against trails at one instant; optionally record the outcome as a decision. */
export class CreateEvaluationCommand extends OrgCommand<CreateEvaluationProps, EvaluationResponse> {}
