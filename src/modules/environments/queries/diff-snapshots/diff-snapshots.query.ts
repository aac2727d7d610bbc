import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { SnapshotDiffResponse } from '../../dto/snapshot.response';

export interface DiffSnapshotsProps extends OrgScope {
  envName: string;
  from: string;
  to: string;
}

export class DiffSnapshotsQuery extends OrgQuery<DiffSnapshotsProps, SnapshotDiffResponse> {}
