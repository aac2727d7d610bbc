import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';

export interface GetLatestCommitProps extends OrgScope {
  flowName: string;
  fingerprint: string;
  branch?: string;
}

/** `{latest_commit}`: the commit of the flow's latest report of the fingerprint (on `branch`, when given). */
export class GetLatestCommitQuery extends OrgQuery<GetLatestCommitProps, { latest_commit: string | null }> {}
