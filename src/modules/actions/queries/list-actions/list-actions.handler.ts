import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ActionResponse, toActionResponse } from '../../dto/action.response';
import { ActionReader } from '../../persistence/action.reader';
import { ListActionsQuery } from './list-actions.query';

@QueryHandler(ListActionsQuery)
export class ListActionsHandler implements IQueryHandler<ListActionsQuery> {
  constructor(private readonly actions: ActionReader) {}

  async execute(query: ListActionsQuery): Promise<ActionResponse[]> {
    return (await this.actions.list(query.props.orgId, query.props.type)).map(toActionResponse);
  }
}
