import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { SnapshotListItem } from '../../dto/snapshot.response';

export interface ListSnapshotsProps extends OrgScope {
  envName: string;
  interval?: string;
  oldestFirst: boolean;
  page?: number;
  perPage?: number;
}

/** A plain array (what the CLI reads), newest first, one page of it. */
export class ListSnapshotsQuery extends OrgQuery<ListSnapshotsProps, SnapshotListItem[]> {}
