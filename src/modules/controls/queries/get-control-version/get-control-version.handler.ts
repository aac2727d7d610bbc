import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { ControlVersionResponse } from '../../dto/control-version.response';
import { ControlRepository } from '../../persistence/control.repository';
import { GetControlVersionQuery } from './get-control-version.query';

@QueryHandler(GetControlVersionQuery)
export class GetControlVersionHandler implements IQueryHandler<GetControlVersionQuery> {
  constructor(private readonly controls: ControlRepository) {}

  async execute(query: GetControlVersionQuery): Promise<ControlVersionResponse> {
    const { orgId, identifier } = query.props;
    if (!/^[1-9][0-9]{0,8}$/.test(query.props.version)) throw new ValidationError({ version: 'must be a positive integer' });
    const version = Number(query.props.version);
    const found = await this.controls.version(orgId, identifier, version);
    if (!found) throw new NotFoundError(`Control '${identifier}' has no version ${version} kept`);
    return found;
  }
}
