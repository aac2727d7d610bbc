import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';

export interface ChangePoliciesProps extends ActingScope {
  envName: string;
  policyNames: string[];
  change: 'attach' | 'detach';
}

export interface PoliciesChanged {
  environment: string;
  /** The policies attached after the change. */
  policies: string[];
  /** The snapshot taken to judge the environment again (null when it had none). */
  snapshot: number | null;
}

/** Attach or detach policies: the latest snapshot's artifacts are judged again, as a new snapshot. */
export class ChangePoliciesCommand extends OrgCommand<ChangePoliciesProps, PoliciesChanged> {}
