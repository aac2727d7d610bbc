import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { AssertEnvironmentsResponse } from '../../dto/assert.response';

export interface AssertArtifactEnvironmentsProps extends OrgScope {
  fingerprint: string;
  flowName?: string;
}

/** `GET /asserts/{org}/fingerprint/{fingerprint}/environments`: the gate's answer for the artifact in every environment at once. */
export class AssertArtifactEnvironmentsQuery extends OrgQuery<AssertArtifactEnvironmentsProps, AssertEnvironmentsResponse> {}
