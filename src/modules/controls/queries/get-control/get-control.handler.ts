import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { ControlResponse, toControlResponse } from '../../dto/control.response';
import { ControlRepository } from '../../persistence/control.repository';
import { PolicyNamesOfControls } from '../../policy-names';
import { GetControlQuery } from './get-control.query';

@QueryHandler(GetControlQuery)
export class GetControlHandler implements IQueryHandler<GetControlQuery> {
  constructor(
    private readonly controls: ControlRepository,
    private readonly policyNames: PolicyNamesOfControls,
  ) {}

  async execute(query: GetControlQuery): Promise<ControlResponse> {
    const row = await this.controls.find(query.props.orgId, query.props.identifier);
    if (!row) throw new NotFoundError(`Control '${query.props.identifier}' not found`);
    return toControlResponse(row, await this.policyNames.ofOne(query.props.orgId, row.identifier));
  }
}
