import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { ControlVersionResponse } from '../../dto/control-version.response';

export class GetControlVersionQuery extends OrgQuery<OrgScope & { identifier: string; version: string }, ControlVersionResponse> {}
