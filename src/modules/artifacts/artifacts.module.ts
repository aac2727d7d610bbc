import { Module } from '@nestjs/common';
import { ArtifactsController } from './artifacts.controller';
import { ReportArtifactHandler } from './commands/report-artifact/report-artifact.handler';

/** Artifacts reported into trails (each report is a trail moment). */
@Module({
  controllers: [ArtifactsController],
  providers: [ReportArtifactHandler],
})
export class ArtifactsModule {}
