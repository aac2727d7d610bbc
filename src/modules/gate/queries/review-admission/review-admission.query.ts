import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { AdmissionMode, AdmissionReviewResponse } from '../../domain/admission-review';

export interface ReviewAdmissionProps extends OrgScope {
  envName: string;
  mode: AdmissionMode;
  exemptNamespaces: string[];
  body: unknown;
}

/** `POST /admission/{org}/{env}`: judge the images of a pod (or pod template) against the environment's policies. */
export class ReviewAdmissionQuery extends OrgQuery<ReviewAdmissionProps, AdmissionReviewResponse> {}
