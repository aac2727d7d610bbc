import { Readable } from 'node:stream';
import { OrgQuery, OrgScope } from '../../../common/cqrs/org-scoped';

export interface GetTrailAuditPdfProps extends OrgScope {
  flowName: string;
  trailName: string;
}

/** `GET /trails/{org}/{flow}/{trail}/audit_pdf`: a PDF report an auditor can read and file, streamed. */
export class GetTrailAuditPdfQuery extends OrgQuery<GetTrailAuditPdfProps, { filename: string; stream: Readable }> {}
