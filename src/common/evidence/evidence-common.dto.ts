import { Transform } from 'class-transformer';
import { IsArray, IsNumber, IsObject, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** `git_commit_info`, as the reference and the open-source CLI send it. */
export class GitCommitInfoDto {
  @IsString()
  @MinLength(1)
  sha1: string;

  @IsOptional()
  @IsString()
  message?: string | null;

  @IsOptional()
  @IsString()
  author?: string | null;

  @IsOptional()
  @IsString()
  author_username?: string | null;

  @IsOptional()
  @IsString()
  branch?: string | null;

  /** Unix seconds; the reference allows a fraction. */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  timestamp?: number | null;

  @IsOptional()
  @IsString()
  url?: string | null;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  parents?: string[] | null;
}

/**
 * `repo_info`: registers or updates the repo in the org, keyed by `provider` and `id` (the provider's repo id,
 * unique only within its provider; the CLI sends both). Providers are free-form: the CLI sends github, gitlab, bitbucket, bitbucket_cloud, azure-devops,
 * azure_devops_services, git, subversion ...
 */
export class RepoInfoDto {
  @IsOptional()
  @IsString()
  @MaxLength(256)
  id?: string | null;

  @IsString()
  @MinLength(1)
  @MaxLength(512)
  name: string;

  @IsString()
  url: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  provider?: string | null;

  @IsOptional()
  @IsString()
  description?: string | null;

  /** Newer CLIs send the namespace as a list of path segments; it is stored joined with '/'. */
  @IsOptional()
  @Transform(({ value }) =>
    Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.join('/') : value,
  )
  @IsString()
  namespace_path?: string | null;

  @IsOptional()
  @IsObject()
  additional_info?: Record<string, unknown> | null;
}
