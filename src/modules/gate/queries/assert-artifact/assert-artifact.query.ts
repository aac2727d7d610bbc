import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { AssertArtifactResponse } from '../../dto/assert.response';

export interface AssertArtifactProps extends OrgScope {
  fingerprint: string;
  flowName?: string;
  environmentName?: string;
  policyNames: string[];
}

/** `GET /asserts/{org}/fingerprint/{fingerprint}`: is this artifact compliant, by an environment's policies, named policies, or its flows. */
export class AssertArtifactQuery extends OrgQuery<AssertArtifactProps, AssertArtifactResponse> {}
