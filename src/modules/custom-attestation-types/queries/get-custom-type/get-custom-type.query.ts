import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { CustomTypeResponse } from '../../dto/custom-type.response';

export interface GetCustomTypeProps extends OrgScope {
  name: string;
  /** Only this version in `versions` (404 when there is none). */
  version?: number;
}

export class GetCustomTypeQuery extends OrgQuery<GetCustomTypeProps, CustomTypeResponse> {}
