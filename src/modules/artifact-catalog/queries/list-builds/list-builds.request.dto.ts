import { Type } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_PAGE } from '../../../../common/pagination/page-envelope';

/** `GET /builds/{org}`: the reference's query (its time bounds are named with hyphens). */
export class ListBuildsQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page?: number;

  /** At most 50 (the reference's limit). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(50)
  per_page?: number;

  /** The provider's id of the repo (`repo_info.id`). */
  @IsOptional()
  @IsString()
  @MaxLength(512)
  repo_id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  repo_name?: string;

  /** Unix seconds; default 28 days before `end-ts`. */
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(253402300799)
  'start-ts'?: number;

  /** Unix seconds; default now. */
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(253402300799)
  'end-ts'?: number;
}
