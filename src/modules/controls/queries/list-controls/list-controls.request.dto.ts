import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../../common/pagination/page-envelope';

export class ListControlsQueryDto extends PageQueryDto {
  /** Controls whose identifier or name contains this text (case-insensitive). */
  @IsOptional()
  @IsString()
  @MaxLength(256)
  search?: string;

  /** `key:value` or `key=value`, repeatable: controls carrying every tag given. */
  @IsOptional()
  @Transform(({ value }) => (Array.isArray(value) ? value : [value]))
  @Matches(/^[^=:]+[=:].*$/, { each: true })
  tag?: string[];

  /** `true`: the archived controls instead of the active ones. */
  @IsOptional()
  @IsIn(['true', 'false'])
  archived?: string;

  @IsOptional()
  @IsIn(['asc', 'desc'])
  sort_direction?: string;
}
