import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import type { DeliveryAttemptResponse } from '../../dto/delivery.response';

export interface ListDeliveriesProps extends OrgScope {
  number: number;
}

/** The action's latest delivery attempts (at most 100), newest first. */
export class ListDeliveriesQuery extends OrgQuery<ListDeliveriesProps, DeliveryAttemptResponse[]> {}
