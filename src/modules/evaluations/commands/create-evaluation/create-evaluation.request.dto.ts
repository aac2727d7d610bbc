import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsStringMap } from '../../../../common/validation/string-map';
import { IsAttestationName, IsFlowName, IsTrailName } from '../../../../common/validation/names';
import { policyPathProblem } from '../../domain/policy-bundle';

export const CONTROL_IDENTIFIER = /^[a-zA-Z0-9\-._~]+$/;
export const FINGERPRINT = /^[a-f0-9]{64}$/;

/** A trail to evaluate, by flow and trail name. */
export class TrailReferenceDto {
  @IsFlowName()
  flow: string;

  @IsTrailName()
  trail: string;
}

export class EvaluationContextDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => TrailReferenceDto)
  trails: TrailReferenceDto[];
}

/** An OPA bundle sent inline: relative path -> file text (1 to 100 files). */
export class InlinePolicyDto {
  @IsStringMap({ minEntries: 1, maxEntries: 100, key: policyPathProblem })
  files: Record<string, string>;
}

/** Record the outcome as a decision against a control, in this flow and trail (and artifact). */
export class DecisionRequestDto {
  @IsString()
  @MaxLength(256)
  @Matches(CONTROL_IDENTIFIER, { message: `must match ${CONTROL_IDENTIFIER.source}` })
  control: string;

  @IsAttestationName()
  name: string;

  @IsFlowName()
  flow: string;

  @IsTrailName()
  trail: string;

  @IsOptional()
  @IsString()
  @Matches(FINGERPRINT, { message: 'must be 64 lowercase hex characters' })
  fingerprint?: string | null;
}

/** `POST /evaluations/{org}`: unknown fields are refused at every level. */
export class CreateEvaluationRequestDto {
  @IsObject()
  @ValidateNested()
  @Type(() => EvaluationContextDto)
  context: EvaluationContextDto;

  @IsObject()
  @ValidateNested()
  @Type(() => InlinePolicyDto)
  policy: InlinePolicyDto;

  /** What the policy reads as `data.params`: any object, not checked against the policy. */
  @IsOptional()
  @IsObject()
  params?: Record<string, unknown> | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DecisionRequestDto)
  decision?: DecisionRequestDto | null;
}
