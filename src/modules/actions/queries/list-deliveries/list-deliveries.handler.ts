import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ActionNotFoundError } from '../../dto/action.response';
import { DeliveryAttemptResponse, toDeliveryAttemptResponse } from '../../dto/delivery.response';
import { ActionReader } from '../../persistence/action.reader';
import { DeliveryReader } from '../../persistence/delivery.reader';
import { ListDeliveriesQuery } from './list-deliveries.query';

const RECENT = 100;

@QueryHandler(ListDeliveriesQuery)
export class ListDeliveriesHandler implements IQueryHandler<ListDeliveriesQuery> {
  constructor(
    private readonly actions: ActionReader,
    private readonly deliveries: DeliveryReader,
  ) {}

  async execute(query: ListDeliveriesQuery): Promise<DeliveryAttemptResponse[]> {
    const action = await this.actions.find(query.props.orgId, query.props.number);
    if (!action) throw new ActionNotFoundError();
    return (await this.deliveries.recentAttempts(query.props.orgId, action.id, RECENT)).map(toDeliveryAttemptResponse);
  }
}
