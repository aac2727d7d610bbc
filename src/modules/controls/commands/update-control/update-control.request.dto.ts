import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsStringMap } from '../../../../common/validation/string-map';

/**
 * A partial edit: the fields sent replace the stored ones (`links` replaces all links). A field sent as null is
 * as if it were not sent (the project's rule for optional fields: docs/choices.md), never a stored null.
 */
export class UpdateControlRequestDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  name?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string | null;

  @IsOptional()
  @IsStringMap({ maxEntries: 50, maxValueLength: 2048 })
  links?: Record<string, string> | null;
}
