import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsStringOrStrings } from '../../query-fields';

/** What `kosli assert artifact` sends: at most one of environment_name and policy_name (repeatable). */
export class AssertArtifactQueryDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  flow_name?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  environment_name?: string;

  @IsOptional()
  @IsStringOrStrings()
  policy_name?: string | string[];
}
