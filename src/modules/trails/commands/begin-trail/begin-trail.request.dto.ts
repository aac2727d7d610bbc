import { Type } from 'class-transformer';
import { IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { GitCommitInfoDto, RepoInfoDto } from '../../../../common/evidence/evidence-common.dto';
import { IsExternalUrls, IsObjectOrArray } from '../../../../common/evidence/evidence-validators';

export const TRAIL_NAME_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9\-_.~]*$/;

/** `data_json` of `PUT /trails/{org}/{flow}` (begin or update a trail). */
export class BeginTrailDataDto {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  @Matches(TRAIL_NAME_PATTERN)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => GitCommitInfoDto)
  git_commit_info?: GitCommitInfoDto | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => RepoInfoDto)
  repo_info?: RepoInfoDto | null;

  @IsOptional()
  @IsObjectOrArray()
  user_data?: unknown;

  @IsOptional()
  @IsString()
  origin_url?: string | null;

  @IsOptional()
  @IsExternalUrls()
  external_urls?: Record<string, unknown> | null;
}
