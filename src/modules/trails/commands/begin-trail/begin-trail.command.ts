import { Command } from '@nestjs/cqrs';
import { BeginTrailDataDto } from './begin-trail.request.dto';

export interface BeginTrailResult {
  created: boolean;
  message: string;
}

/** Begin a trail (201), or update the fields sent (200); a template file gives the trail its own template. */
export class BeginTrailCommand extends Command<BeginTrailResult> {
  constructor(
    readonly orgId: string,
    readonly actor: string,
    readonly flowName: string,
    readonly data: BeginTrailDataDto,
    readonly templateSource: string | null,
  ) {
    super();
  }
}
