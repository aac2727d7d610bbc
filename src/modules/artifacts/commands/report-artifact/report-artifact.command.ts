import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { ReportArtifactRequestDto } from './report-artifact.request.dto';

export interface ReportArtifactProps extends ActingScope {
  flowName: string;
  artifact: ReportArtifactRequestDto;
}

/** Report an artifact into a trail (created, with its flow, when missing); a new moment of that trail. */
export class ReportArtifactCommand extends OrgCommand<ReportArtifactProps, string> {}
