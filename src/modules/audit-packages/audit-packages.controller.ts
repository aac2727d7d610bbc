import { Controller, Get, Param, StreamableFile } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentOrg } from '../../common/auth/auth.decorators';
import { OrgContext } from '../../common/auth/principal';
import { orgScope } from '../../common/cqrs/org-scoped';
import { ApiErrors, ApiSuccess } from '../../common/openapi/response-schema';
import { describe, string } from '../../common/openapi/response-schema';
import { GetTrailAuditPackageQuery } from './queries/get-trail-audit-package.query';
import { GetTrailAuditPdfQuery } from './queries/get-trail-audit-pdf.query';
import { GetArtifactAuditPackageQuery } from './queries/get-artifact-audit-package.query';

const PDF_SCHEMA = describe(string, 'a PDF report: the trail, its compliance and why, attestations, decisions, the log checkpoint and leaf hashes');
const PACKAGE_SCHEMA = describe(string, 'a gzip-compressed tar: manifest.json, trail.json (or artifact.json), attestations/, evidence/, evaluations/, policies/, log/, README.txt');

/** Audit packages: a trail's records, evidence, signed decisions and log proofs, checkable offline. */
@Controller()
export class AuditPackagesController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get('trails/:org/:flow/:trail/audit_package')
  @ApiSuccess(PACKAGE_SCHEMA, { contentType: 'application/gzip' })
  @ApiErrors({ 404: 'unknown flow or trail' })
  async trailPackage(@CurrentOrg() org: OrgContext, @Param('flow') flow: string, @Param('trail') trail: string): Promise<StreamableFile> {
    const { filename, stream } = await this.queryBus.execute(new GetTrailAuditPackageQuery({ ...orgScope(org), flowName: flow, trailName: trail }));
    return new StreamableFile(stream, { type: 'application/gzip', disposition: `attachment; filename="${filename}"` });
  }

  @Get('artifacts/:org/:flow/:fingerprint/audit_package')
  @ApiSuccess(PACKAGE_SCHEMA, { contentType: 'application/gzip' })
  @ApiErrors({ 404: 'unknown flow, or no artifact with that fingerprint in it' })
  async artifactPackage(@CurrentOrg() org: OrgContext, @Param('flow') flow: string, @Param('fingerprint') fingerprint: string): Promise<StreamableFile> {
    const { filename, stream } = await this.queryBus.execute(new GetArtifactAuditPackageQuery({ ...orgScope(org), flowName: flow, fingerprint }));
    return new StreamableFile(stream, { type: 'application/gzip', disposition: `attachment; filename="${filename}"` });
  }

  @Get('trails/:org/:flow/:trail/audit_pdf')
  @ApiSuccess(PDF_SCHEMA, { contentType: 'application/pdf' })
  @ApiErrors({ 404: 'unknown flow or trail' })
  async trailPdf(@CurrentOrg() org: OrgContext, @Param('flow') flow: string, @Param('trail') trail: string): Promise<StreamableFile> {
    const { filename, stream } = await this.queryBus.execute(new GetTrailAuditPdfQuery({ ...orgScope(org), flowName: flow, trailName: trail }));
    return new StreamableFile(stream, { type: 'application/pdf', disposition: `attachment; filename="${filename}"` });
  }
}
