import { Readable } from 'node:stream';
import { OrgQuery, OrgScope } from '../../../common/cqrs/org-scoped';

export interface GetTrailAuditPackageProps extends OrgScope {
  flowName: string;
  trailName: string;
}

/** `GET /trails/{org}/{flow}/{trail}/audit_package`: a gzip tar, streamed. */
export class GetTrailAuditPackageQuery extends OrgQuery<GetTrailAuditPackageProps, { filename: string; stream: Readable }> {}
