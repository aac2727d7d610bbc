import { Command } from '@nestjs/cqrs';
import { ReportArtifactRequestDto } from './report-artifact.request.dto';

/** Report an artifact into a trail (created, with its flow, when missing); a new moment of that trail. */
export class ReportArtifactCommand extends Command<string> {
  constructor(
    readonly orgId: string,
    readonly actor: string,
    readonly flowName: string,
    readonly artifact: ReportArtifactRequestDto,
  ) {
    super();
  }
}
