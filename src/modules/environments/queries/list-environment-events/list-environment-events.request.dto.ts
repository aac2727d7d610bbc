import { Type } from 'class-transformer';
import { IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { PageQueryDto } from '../../../../common/pagination/page-envelope';
import { IsStringOrStrings } from '../../dto/query-fields';

/** The query `kosli log environment` sends. */
export class ListEnvironmentEventsQueryDto extends PageQueryDto {
  /** Deprecated by the reference for `start`/`end`: two snapshot expressions joined by `..`; empty is all. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  interval?: string;

  /** `true`: oldest first (default: newest first). */
  @IsOptional()
  @Matches(/^(true|false)$/i)
  reverse?: string;

  @IsOptional()
  /** Repeatable: events of artifacts reported from any of these repos. */
  @IsStringOrStrings()
  repo_name?: string | string[];

  @IsOptional()
  @IsString()
  @MaxLength(64)
  start?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  end?: string;

  /** Unix seconds. */
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(253402300799)
  start_ts?: number;

  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(253402300799)
  end_ts?: number;
}
