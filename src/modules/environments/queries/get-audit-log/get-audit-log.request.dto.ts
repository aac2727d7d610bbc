import { Type } from 'class-transformer';
import { IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** The reference's audit-log filters; lists are comma-separated. */
export class GetAuditLogQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(253402300799)
  from_timestamp?: number;

  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(253402300799)
  to_timestamp?: number;

  /** `started`, `exited`, `changed` (and `compliance_changed`), comma-separated. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  event_types?: string;

  /** Flow names, comma-separated; `no provenance` keeps artifacts no flow reported. */
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  flow_names?: string;

  @IsOptional()
  @IsString()
  @MaxLength(4096)
  repo_names?: string;
}
