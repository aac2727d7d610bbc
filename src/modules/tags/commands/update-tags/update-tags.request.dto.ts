import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsKeyedMap } from '../../../../common/validation/keyed-map';
import { tagMapProblems } from '../../domain/tag-update';

/** `PATCH /tags/{org}/{resource_type}/{resource_id}`: what `kosli tag` sends. */
export class UpdateTagsRequestDto {
  /** Tag key -> value; a bad entry is reported under `set_tags.<key>`. */
  @IsOptional()
  @IsKeyedMap('isTagMap', tagMapProblems)
  set_tags?: Record<string, string> | null;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(256, { each: true })
  remove_tags?: string[] | null;
}
