import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsEnvironmentName } from '../../../../common/validation/names';

/** `PUT /environments/{org}`: the fields `kosli create environment` (and `snapshot --auto-environment`) send. */
export class CreateEnvironmentRequestDto {
  @IsEnvironmentName()
  name!: string;

  /** A physical type (`K8S`, `ECS`, `S3`, `docker`, `server`, `lambda`) or `logical`; checked against the registry. */
  @IsString()
  type!: string;

  @IsOptional()
  @IsString()
  @MaxLength(4096)
  description?: string | null;

  /** A change of instance count alone makes a new snapshot (default false). */
  @IsOptional()
  @IsBoolean()
  include_scaling?: boolean | null;

  /** An artifact no trail reported makes a snapshot non-compliant (default false). */
  @IsOptional()
  @IsBoolean()
  require_provenance?: boolean | null;

  /** A logical environment's members (physical environments of the org); sent, it replaces the list. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsEnvironmentName({ each: true })
  included_environments?: string[] | null;

  /** Environment policies (the reference's field): none exist in Veritrail yet, so only an empty list is accepted. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(0, { message: 'environment policies are not supported yet' })
  policies?: string[] | null;
}
