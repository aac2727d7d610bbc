import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { GitCommitInfoDto, RepoInfoDto } from '../../../../common/evidence/evidence-common.dto';
import { IsAnnotations, IsExternalUrls, IsObjectOrArray } from '../../../../common/evidence/evidence-validators';
import { CompiledValidation } from '../../../../common/validation/compiled-validation';
import { IsTemplateReferenceName, IsTrailName } from '../../../../common/validation/names';

export const FINGERPRINT_PATTERN = /^[a-f0-9]{64}$/;

/**
 * `POST /artifacts/{org}/{flow}`: every field of the reference's artifact report (the CLI sends them). Sent by
 * every build, so compiled.
 */
@CompiledValidation()
export class ReportArtifactRequestDto {
  @Matches(FINGERPRINT_PATTERN)
  @IsString()
  fingerprint: string;

  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  filename: string;

  @IsTrailName()
  trail_name: string;

  @IsTemplateReferenceName()
  template_reference_name: string;

  @IsOptional()
  @IsString()
  description?: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== '')
  @Matches(/^[a-f0-9]{40}$/)
  git_commit?: string | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => GitCommitInfoDto)
  git_commit_info?: GitCommitInfoDto | null;

  @IsOptional()
  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => GitCommitInfoDto)
  commits_list?: GitCommitInfoDto[] | null;

  @IsOptional()
  @IsString()
  build_url?: string | null;

  @IsOptional()
  @IsString()
  commit_url?: string | null;

  @IsOptional()
  @IsString()
  repo_url?: string | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RepoInfoDto)
  repo_info?: RepoInfoDto | null;

  @IsOptional()
  @IsBoolean()
  is_compliant?: boolean | null;

  /** Legacy: accepted for the CLI, not used. */
  @IsOptional()
  template?: string | string[] | null;

  @IsOptional()
  @IsExternalUrls()
  external_urls?: Record<string, unknown> | null;

  @IsOptional()
  @IsAnnotations()
  annotations?: Record<string, string> | null;

  @IsOptional()
  @IsObjectOrArray()
  user_data?: unknown;
}
