import type { StreamableFile } from '@nestjs/common';
import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';

export interface GetAuditLogProps extends OrgScope {
  envName: string;
  fromTimestamp?: number;
  toTimestamp?: number;
  eventTypes?: string;
  flowNames?: string;
  repoNames?: string;
}

/** The environment's event log as CSV, oldest first, streamed. */
export class GetAuditLogQuery extends OrgQuery<GetAuditLogProps, StreamableFile> {}
