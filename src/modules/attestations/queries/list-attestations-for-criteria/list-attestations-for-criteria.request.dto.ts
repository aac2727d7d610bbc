import { Allow, IsOptional, IsString } from 'class-validator';

/**
 * Query of `GET /attestations/{org}/list_attestations_for_criteria`. `commit_list` may repeat
 * (`commit_list=a&commit_list=b`) or be comma-separated; it is checked by the handler (its 400 message is the
 * reference's). `attestation_id` narrows to that attestation.
 */
export class ListAttestationsForCriteriaRequestDto {
  /** Required (the route table and the API description say so); its absence is the handler's 400. */
  @Allow()
  commit_list?: string | string[];

  @IsOptional()
  @IsString()
  flow_name?: string;

  @IsOptional()
  @IsString()
  attestation_name?: string;

  @IsOptional()
  @IsString()
  attestation_type?: string;

  @IsOptional()
  @IsString()
  attestation_id?: string;
}
