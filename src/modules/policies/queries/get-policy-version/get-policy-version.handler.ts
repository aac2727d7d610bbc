import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { PolicyVersionResponse } from '../../dto/policy-version.response';
import { PolicyRepository } from '../../persistence/policy.repository';
import { GetPolicyVersionQuery } from './get-policy-version.query';

/** A version number in a path: 1, 2, ... (at most nine digits). */
export function parseVersionNumber(text: string): number {
  if (!/^[1-9][0-9]{0,8}$/.test(text)) throw new ValidationError({ version: 'must be a positive integer' });
  return Number(text);
}

@QueryHandler(GetPolicyVersionQuery)
export class GetPolicyVersionHandler implements IQueryHandler<GetPolicyVersionQuery> {
  constructor(private readonly policies: PolicyRepository) {}

  async execute(query: GetPolicyVersionQuery): Promise<PolicyVersionResponse> {
    const { orgId, name } = query.props;
    const version = parseVersionNumber(query.props.version);
    const found = await this.policies.version(orgId, name, version);
    if (!found) throw new NotFoundError(`Policy '${name}' has no version ${version}`);
    return found;
  }
}
