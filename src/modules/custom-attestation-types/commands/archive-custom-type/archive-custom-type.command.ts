import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { CustomTypeResponse } from '../../dto/custom-type.response';

export interface ArchiveCustomTypeProps extends ActingScope {
  name: string;
}

/** Archive a custom attestation type: its versions stay readable; new attestations of it are refused. */
export class ArchiveCustomTypeCommand extends OrgCommand<ArchiveCustomTypeProps, CustomTypeResponse> {}
