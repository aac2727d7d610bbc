import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { CustomTypeResponse } from '../../dto/custom-type.response';
import { DefineCustomTypeRequestDto } from './define-custom-type.request.dto';

export interface DefineCustomTypeProps extends ActingScope {
  data: DefineCustomTypeRequestDto;
  /** The `type_schema` file part as sent (JSON text), or null. */
  schemaSource: string | null;
}

/** Create a custom attestation type, or add a version to it when anything changed. */
export class DefineCustomTypeCommand extends OrgCommand<DefineCustomTypeProps, CustomTypeResponse> {}
