import { Module } from '@nestjs/common';
import { EvaluationsModule } from '../evaluations/evaluations.module';
import { AuditPackagesController } from './audit-packages.controller';
import { AuditPackageWriter, GetArtifactAuditPackageHandler, GetTrailAuditPackageHandler } from './queries/audit-package.handlers';
import { GetTrailAuditPdfHandler } from './queries/get-trail-audit-pdf.handler';

/**
 * Audit packages (trust layer): a trail's records, evidence, signed decisions and the evidence log's proofs as one
 * streamed gzip tar that `verify package` checks offline. Owns no table: it reads through the owners' queries
 * and facades. No public surface.
 */
@Module({
  imports: [EvaluationsModule],
  controllers: [AuditPackagesController],
  providers: [AuditPackageWriter, GetTrailAuditPackageHandler, GetArtifactAuditPackageHandler, GetTrailAuditPdfHandler],
})
export class AuditPackagesModule {}
