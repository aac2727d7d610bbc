import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { EnvironmentEventPage } from '../../dto/environment-event.response';

export interface ListEnvironmentEventsProps extends OrgScope {
  envName: string;
  interval?: string;
  start?: string;
  end?: string;
  startTs?: number;
  endTs?: number;
  repoNames: string[];
  oldestFirst: boolean;
  page?: number;
  perPage?: number;
}

export class ListEnvironmentEventsQuery extends OrgQuery<ListEnvironmentEventsProps, EnvironmentEventPage> {}
