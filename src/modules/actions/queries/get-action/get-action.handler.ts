import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ActionNotFoundError, ActionResponse, toActionResponse } from '../../dto/action.response';
import { ActionReader } from '../../persistence/action.reader';
import { GetActionQuery } from './get-action.query';

@QueryHandler(GetActionQuery)
export class GetActionHandler implements IQueryHandler<GetActionQuery> {
  constructor(private readonly actions: ActionReader) {}

  async execute(query: GetActionQuery): Promise<ActionResponse> {
    const row = await this.actions.find(query.props.orgId, query.props.number, query.props.type);
    if (!row) throw new ActionNotFoundError();
    return toActionResponse(row);
  }
}
