import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { PolicyResponse } from '../../dto/policy.response';

export interface PutPolicyProps extends ActingScope {
  name: string;
  /** null: as if not sent. */
  description?: string | null;
  comment?: string | null;
  yaml: string;
}

/** Create a policy (201) or add a version when its content changed (200; unchanged content adds none). */
export class PutPolicyCommand extends OrgCommand<PutPolicyProps, { created: boolean; policy: PolicyResponse }> {}
