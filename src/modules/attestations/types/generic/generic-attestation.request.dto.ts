import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsObject, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';
import { IsAnnotations, IsExternalUrls, IsObjectOrArray } from '../../../../common/evidence/evidence-validators';
import { GitCommitInfoDto, RepoInfoDto } from '../../../../common/evidence/evidence-common.dto';
import { CompiledValidation } from '../../../../common/validation/compiled-validation';
import { IsAttestationName } from '../../../../common/validation/names';

export const FINGERPRINT = /^[a-f0-9]{64}$/;

/**
 * The `data_json` part of a generic attestation (spec op 7 + the reference's extra fields). Required:
 * `attestation_name`, `is_compliant`. Every other field may be absent or null. Unknown fields are 400.
 * The ingest route's hot path: compiled.
 */
@CompiledValidation()
export class GenericAttestationRequestDto {
  @IsAttestationName()
  attestation_name: string;

  @IsBoolean()
  is_compliant: boolean;

  @IsOptional()
  @IsString()
  @Matches(FINGERPRINT, { message: 'must be 64 lowercase hex characters' })
  artifact_fingerprint?: string | null;

  @IsOptional()
  @IsArray()
  @IsAttestationName({ each: true })
  target_artifacts?: string[] | null;

  @IsOptional()
  @IsString()
  description?: string | null;

  @IsOptional()
  @IsString()
  origin_url?: string | null;

  @IsOptional()
  @IsExternalUrls()
  external_urls?: Record<string, unknown> | null;

  @IsOptional()
  @IsAnnotations()
  annotations?: Record<string, string> | null;

  @IsOptional()
  @IsObjectOrArray()
  user_data?: Record<string, unknown> | unknown[] | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => GitCommitInfoDto)
  git_commit_info?: GitCommitInfoDto | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RepoInfoDto)
  repo_info?: RepoInfoDto | null;
}
