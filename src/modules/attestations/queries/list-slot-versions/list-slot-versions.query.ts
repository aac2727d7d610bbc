import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { AttestationResponse } from '../../dto/attestation.response';

export interface ListSlotVersionsProps extends OrgScope {
  flowName: string;
  trailName: string;
  slot: string;
}

/** The versions of one slot of a trail (`<name>` or `<artifact>.<name>`), newest first. */
export class ListSlotVersionsQuery extends OrgQuery<ListSlotVersionsProps, AttestationResponse[]> {}
