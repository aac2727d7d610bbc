import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { ControlPage } from '../../dto/control.response';

export interface ListControlsProps extends OrgScope {
  page?: number;
  perPage?: number;
  search?: string;
  /** `key:value` or `key=value` */
  tags?: string[];
  archived?: string;
  sortDirection?: string;
}

/** Active (or archived) controls by name, paged. */
export class ListControlsQuery extends OrgQuery<ListControlsProps, ControlPage> {}
