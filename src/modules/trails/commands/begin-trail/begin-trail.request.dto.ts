import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { GitCommitInfoDto, RepoInfoDto } from '../../../../common/evidence/evidence-common.dto';
import { IsExternalUrls, IsObjectOrArray } from '../../../../common/evidence/evidence-validators';
import { CompiledValidation } from '../../../../common/validation/compiled-validation';
import { IsTrailName } from '../../../../common/validation/names';

/** `data_json` of `PUT /trails/{org}/{flow}` (begin or update a trail): sent by every pipeline run, so compiled. */
@CompiledValidation()
export class BeginTrailDataDto {
  @IsTrailName()
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string;

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
