import { IsObject } from 'class-validator';
import { AttestationCommonFieldsDto } from '../../dto/attestation-common-fields.dto';

/**
 * `data_json` of `kosli attest sonar`: the common fields and `sonar_results`, the analysis as SonarQube reports
 * it (the shape of its webhook payload). SonarQube adds fields over time, so `sonar_results` takes extra fields
 * at every level; its required ones are checked by SONAR_RESULTS_SHAPE (sonar-results.ts), keyed by path.
 */
export class SonarAttestationRequestDto extends AttestationCommonFieldsDto {
  @IsObject()
  sonar_results: Record<string, unknown>;
}
