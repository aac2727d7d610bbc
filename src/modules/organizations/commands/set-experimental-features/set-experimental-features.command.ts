import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';

export interface SetExperimentalFeaturesProps extends ActingScope {
  enabled: boolean;
}

/** An org admin turns the org's beta features on (all of them) or off. */
export class SetExperimentalFeaturesCommand extends OrgCommand<SetExperimentalFeaturesProps, string> {}
