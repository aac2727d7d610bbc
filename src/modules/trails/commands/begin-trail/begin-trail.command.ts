import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { BeginTrailDataDto } from './begin-trail.request.dto';

export interface BeginTrailResult {
  created: boolean;
  message: string;
}

export interface BeginTrailProps extends ActingScope {
  flowName: string;
  data: BeginTrailDataDto;
  templateSource: string | null;
}

/** Begin a trail (201), or update the fields sent (200); a template file gives the trail its own template. */
export class BeginTrailCommand extends OrgCommand<BeginTrailProps, BeginTrailResult> {}
