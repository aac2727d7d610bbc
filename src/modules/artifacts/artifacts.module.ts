import { Module } from '@nestjs/common';
import { EvidenceLogModule } from '../evidence-log/evidence-log.module';
import { LedgerModule } from '../ledger/ledger.module';
import { ReposModule } from '../repos/repos.module';
import { ArtifactDirectory } from './artifact-directory';
import { ArtifactsController } from './artifacts.controller';
import { ReportArtifactHandler } from './commands/report-artifact/report-artifact.handler';
import { ArtifactProvenanceReader } from './persistence/artifact-provenance.reader';
import { ArtifactRepository } from './persistence/artifact.repository';

/**
 * Artifacts reported into trails (each report is a trail moment). Owns `artifacts`.
 * Public surface: ArtifactDirectory (which artifact a fingerprint names in a trail; which trails reported a
 * fingerprint).
 */
@Module({
  imports: [LedgerModule, ReposModule, EvidenceLogModule],
  controllers: [ArtifactsController],
  providers: [ArtifactRepository, ArtifactProvenanceReader, ArtifactDirectory, ReportArtifactHandler],
  exports: [ArtifactDirectory],
})
export class ArtifactsModule {}

export { ArtifactDirectory } from './artifact-directory';
export type { ArtifactProvenance } from './persistence/artifact-provenance.reader';
