import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EnvironmentGate } from '../../../environments/environments.module';
import { PolicyGate } from '../../../policies/policies.module';
import { ChangePoliciesCommand, PoliciesChanged } from './change-policies.command';

@CommandHandler(ChangePoliciesCommand)
export class ChangePoliciesHandler implements ICommandHandler<ChangePoliciesCommand> {
  constructor(
    private readonly environments: EnvironmentGate,
    private readonly policies: PolicyGate,
  ) {}

  async execute(command: ChangePoliciesCommand): Promise<PoliciesChanged> {
    const { orgId, envName, policyNames, change } = command.props;
    let envId = '';
    const snapshot = await this.environments.changeRules(command.props, envName, async (manager, env) => {
      envId = env.id;
      if (change === 'attach') await this.policies.attach(manager, orgId, env.id, policyNames, command.props.actor);
      else await this.policies.detach(manager, orgId, env.id, policyNames);
    });
    const names = await this.policies.attachedNames(orgId, [envId]);
    return { environment: envName, policies: names.get(envId) ?? [], snapshot };
  }
}
