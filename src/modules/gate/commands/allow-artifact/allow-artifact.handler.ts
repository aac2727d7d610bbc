import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EnvironmentGate } from '../../../environments/environments.module';
import { PolicyGate } from '../../../policies/policies.module';
import { AllowArtifactCommand, ArtifactAllowed } from './allow-artifact.command';

@CommandHandler(AllowArtifactCommand)
export class AllowArtifactHandler implements ICommandHandler<AllowArtifactCommand> {
  constructor(
    private readonly environments: EnvironmentGate,
    private readonly policies: PolicyGate,
  ) {}

  async execute(command: AllowArtifactCommand): Promise<ArtifactAllowed> {
    const { orgId, envName, artifactName, fingerprint, description, actor } = command.props;
    await this.environments.changeRules(command.props, envName, (manager, env) =>
      this.policies.putAllowlist(manager, orgId, env.id, { fingerprint, artifactName, description, actor }),
    );
    return { artifact_name: artifactName, artifact_fingerprint: fingerprint, description };
  }
}
