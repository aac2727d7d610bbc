import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { CustomTypeResponse } from '../../dto/custom-type.response';

/** The org's custom attestation types that are not archived, by name, each with its versions. */
export class ListCustomTypesQuery extends OrgQuery<OrgScope, CustomTypeResponse[]> {}
