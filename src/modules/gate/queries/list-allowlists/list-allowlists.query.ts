import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import type { AllowlistRow } from '../../../policies/policies.module';

export class ListAllowlistsQuery extends OrgQuery<OrgScope, AllowlistRow[]> {}
