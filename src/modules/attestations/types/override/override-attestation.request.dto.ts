import { IsBoolean, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { AttestationCommonFieldsDto } from '../../dto/attestation-common-fields.dto';

/** A built-in type name or `custom:<type name>`. */
const ATTESTATION_TYPE = /^[a-z_]+$|^custom:[a-zA-Z0-9][a-zA-Z0-9.\-_~]*$/;

/**
 * The JSON body of `POST /attestations/{org}/{flow}/trail/{trail}/override` as the CLI's `attest override`
 * sends it: the slot (`attestation_name`, optionally an artifact by fingerprint or template name), the new
 * verdict, why, and the type of the attestation overridden.
 */
export class OverrideAttestationRequestDto extends AttestationCommonFieldsDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(4096)
  reason: string;

  @IsBoolean()
  new_compliance_status: boolean;

  @IsString()
  @Matches(ATTESTATION_TYPE, { message: 'must be an attestation type (generic, junit, snyk, pull_request, jira, sonar, ...) or custom:<type name>' })
  original_attestation_type: string;
}

/** An override as recorded: the request and the attestation it overrides. */
export type OverrideData = OverrideAttestationRequestDto & { overridden_attestation_id: string };
