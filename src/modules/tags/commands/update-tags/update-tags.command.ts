import type { BetaFeature } from '../../../../common/auth/principal';
import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';

export interface UpdateTagsProps extends ActingScope {
  /** As written in the path: `flow`, `flows`, `env` ... */
  resourceType: string;
  resourceId: string;
  set: Record<string, string>;
  remove: string[];
  /** The org's beta flags: a resource whose routes are beta can be tagged only with its flag on. */
  features: readonly BetaFeature[];
}

export class UpdateTagsCommand extends OrgCommand<UpdateTagsProps, string> {}
