import { Query } from '@nestjs/cqrs';
import { AttestationResponse } from '../../dto/attestation.response';

/** The versions of one slot of a trail (`<name>` or `<artifact>.<name>`), newest first. */
export class ListSlotVersionsQuery extends Query<AttestationResponse[]> {
  constructor(readonly orgId: string, readonly flowName: string, readonly trailName: string, readonly slot: string) {
    super();
  }
}
