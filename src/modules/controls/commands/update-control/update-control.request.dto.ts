import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsStringMap } from '../../../../common/validation/string-map';

/** A partial edit: the fields sent replace the stored ones (`links` replaces all links). */
export class UpdateControlRequestDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string;

  @IsOptional()
  @IsStringMap({ maxEntries: 50, maxValueLength: 2048 })
  links?: Record<string, string>;
}
