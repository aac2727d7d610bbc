import { Readable } from 'node:stream';
import { OrgQuery, OrgScope } from '../../../common/cqrs/org-scoped';

export interface GetArtifactAuditPackageProps extends OrgScope {
  flowName: string;
  fingerprint: string;
}

/** `GET /artifacts/{org}/{flow}/{fingerprint}/audit_package`: a gzip tar, streamed. */
export class GetArtifactAuditPackageQuery extends OrgQuery<GetArtifactAuditPackageProps, { filename: string; stream: Readable }> {}
