import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsObject, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { AttestationCommonFieldsDto } from '../../dto/attestation-common-fields.dto';

/** What a decision answers: a control's identifier. */
export const CONTROL_IDENTIFIER = /^[a-zA-Z0-9\-._~]+$/;

export class DecisionVerdictDto {
  @IsBoolean()
  is_compliant: boolean;
}

/**
 * `data_json` of `POST /attestations/{org}/{flow}/trail/{trail}/system` as the CLI's `attest decision` sends it:
 * the common attestation fields, `type_name: "decision"`, the `control` decided on and the verdict in
 * `attestation_data.is_compliant`.
 */
export class SystemDecisionRequestDto extends AttestationCommonFieldsDto {
  @IsIn(['decision'], { message: "must be 'decision' (the only system attestation type)" })
  type_name: 'decision';

  @IsString()
  @MaxLength(256)
  @Matches(CONTROL_IDENTIFIER, { message: `must match ${CONTROL_IDENTIFIER.source}` })
  control: string;

  @IsObject()
  @ValidateNested()
  @Type(() => DecisionVerdictDto)
  attestation_data: DecisionVerdictDto;
}

/** Where a decision made by a server-side evaluation comes from: enough to find and check the evaluation. */
export interface DecisionProvenance {
  evaluation_id: string;
  policy_digest: string;
  policy_file_digests: Record<string, string>;
  input_digest: string;
  result_digest: string;
  engine: string;
  engine_version: string;
  /** Unix seconds (exact decimal text) */
  recorded_at: string;
  trails: Array<{ flow_name: string; trail_name: string; moment_number: number }>;
}

/** A decision as recorded: from the CLI (the DTO) or from an evaluation (with violations and provenance). */
export type DecisionData = Omit<SystemDecisionRequestDto, 'type_name'> & {
  type_name?: 'decision';
  violations?: string[];
  evaluation?: DecisionProvenance;
};
