import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../../common/pagination/page-envelope';
import { IsStringOrStrings } from '../../dto/query-fields';

/** The query `kosli list environments` sends; repeatable fields arrive as a string or a list of strings. */
export class ListEnvironmentsQueryDto extends PageQueryDto {
  /** Name contains this (case-insensitive). */
  @IsOptional()
  @IsString()
  @MaxLength(256)
  name?: string;

  @IsOptional()
  @IsStringOrStrings()
  type?: string | string[];

  /** `key` or `key:value`; every one given must match. */
  @IsOptional()
  @IsStringOrStrings()
  tag?: string | string[];

  /** Veritrail has no spaces: a space filter matches nothing. */
  @IsOptional()
  @IsStringOrStrings()
  space_id?: string | string[];

  @IsOptional()
  @IsIn(['name', 'last_modified_at', 'last_changed_at'])
  sort?: 'name' | 'last_modified_at' | 'last_changed_at';

  @IsOptional()
  @IsIn(['asc', 'desc'])
  sort_direction?: 'asc' | 'desc';

  /** `true`: the archived environments (hidden otherwise). */
  @IsOptional()
  @IsIn(['true', 'false'])
  archived?: string;
}
