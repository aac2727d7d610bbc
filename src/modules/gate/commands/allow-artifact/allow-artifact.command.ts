import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';

export interface AllowArtifactProps extends ActingScope {
  envName: string;
  artifactName: string;
  fingerprint: string;
  description: string;
}

export interface ArtifactAllowed {
  artifact_name: string;
  artifact_fingerprint: string;
  description: string;
}

/** Allow an artifact in an environment: it counts as compliant there; the environment is judged again. */
export class AllowArtifactCommand extends OrgCommand<AllowArtifactProps, ArtifactAllowed> {}
