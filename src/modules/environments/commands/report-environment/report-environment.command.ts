import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { ReportBody } from '../../types/environment-type';

export interface ReportEnvironmentProps extends ActingScope {
  envName: string;
  /** The physical type of the report route. */
  type: string;
  /** Validated against the type's DTO. */
  report: ReportBody;
}

export interface ReportOutcome {
  created: boolean;
  /** The snapshot the environment is at after the report. */
  snapshot: number;
  message: string;
}

/** Process a report of what runs in a physical environment: a new snapshot when something changed. */
export class ReportEnvironmentCommand extends OrgCommand<ReportEnvironmentProps, ReportOutcome> {}
