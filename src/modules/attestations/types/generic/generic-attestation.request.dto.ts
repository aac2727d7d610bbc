import { IsBoolean } from 'class-validator';
import { CompiledValidation } from '../../../../common/validation/compiled-validation';
import { AttestationCommonFieldsDto } from '../../dto/attestation-common-fields.dto';

export { FINGERPRINT } from '../../dto/attestation-common-fields.dto';

/**
 * The `data_json` part of a generic attestation (spec op 7 + the reference's extra fields): the common fields
 * and the caller's verdict, `is_compliant` (required). Unknown fields are 400. The ingest route's hot path:
 * compiled.
 */
@CompiledValidation()
export class GenericAttestationRequestDto extends AttestationCommonFieldsDto {
  @IsBoolean()
  is_compliant: boolean;
}
