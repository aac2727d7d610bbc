import { IsIn, IsOptional, IsString, MaxLength, registerDecorator } from 'class-validator';
import { PageQueryDto } from '../../../../common/pagination/page-envelope';

/** `tag` may be repeated (`?tag=team:web&tag=tier`): a string or a list of up to 50. */
function IsTagFilter(): PropertyDecorator {
  const ok = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 512;
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isTagFilter',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => ok(value) || (Array.isArray(value) && value.length <= 50 && value.every(ok)),
        defaultMessage: () => "must be 'key' or 'key:value', repeated up to 50 times",
      },
    });
}

/** The query `kosli list repos` sends. */
export class ListReposQueryDto extends PageQueryDto {
  /** Exact repo name (`owner/repo`); ignored when `repo_id` is given. */
  @IsOptional()
  @IsString()
  @MaxLength(512)
  name?: string;

  /** Name contains this (case-insensitive). */
  @IsOptional()
  @IsString()
  @MaxLength(512)
  search?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  provider?: string;

  /** The provider's id of the repo. */
  @IsOptional()
  @IsString()
  @MaxLength(512)
  repo_id?: string;

  @IsOptional()
  @IsTagFilter()
  tag?: string | string[];

  @IsOptional()
  @IsIn(['asc', 'desc'])
  sort_direction?: 'asc' | 'desc';
}
