import { IsDefined, IsString, Matches, MaxLength } from 'class-validator';
import { AttestationCommonFieldsDto } from '../../dto/attestation-common-fields.dto';

/** A custom attestation type's name (as `POST /custom-attestation-types/{org}` accepts it). */
const TYPE_NAME = /^[a-zA-Z0-9][a-zA-Z0-9.\-_~]*$/;

/**
 * `data_json` of `POST /attestations/{org}/{flow}/trail/{trail}/custom` as the CLI's `attest custom` sends
 * it: the common fields, the custom type's name and the data the type judges (any JSON value: the CLI embeds
 * the `--attestation-data` file as it is).
 */
export class CustomAttestationRequestDto extends AttestationCommonFieldsDto {
  @IsString()
  @MaxLength(256)
  @Matches(TYPE_NAME, { message: `must match ${TYPE_NAME.source}` })
  type_name: string;

  @IsDefined({ message: 'is required (the JSON data the custom type judges)' })
  attestation_data: unknown;
}
