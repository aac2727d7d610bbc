import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';

export interface UpdateTagsProps extends ActingScope {
  /** As written in the path: `flow`, `flows`, `env` ... */
  resourceType: string;
  resourceId: string;
  set: Record<string, string>;
  remove: string[];
}

export class UpdateTagsCommand extends OrgCommand<UpdateTagsProps, string> {}
