import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { SnapshotResponse } from '../../dto/snapshot.response';

export interface GetSnapshotProps extends OrgScope {
  envName: string;
  expression: string;
}

export class GetSnapshotQuery extends OrgQuery<GetSnapshotProps, SnapshotResponse> {}
