import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { ControlResponse } from '../../dto/control.response';

export interface GetControlProps extends OrgScope {
  identifier: string;
}

export class GetControlQuery extends OrgQuery<GetControlProps, ControlResponse> {}
