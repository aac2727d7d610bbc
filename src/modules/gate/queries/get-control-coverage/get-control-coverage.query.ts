import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import type { ControlCoverageResponse } from '../../dto/control-coverage.response';

export interface GetControlCoverageProps extends OrgScope {
  identifier: string;
  page?: number;
  perPage?: number;
  /** Environments whose name contains this text (case-insensitive). */
  search?: string;
  /** Only covered (true) or only not covered (false) environments; all when undefined. */
  covered?: boolean;
}

export class GetControlCoverageQuery extends OrgQuery<GetControlCoverageProps, ControlCoverageResponse> {}
