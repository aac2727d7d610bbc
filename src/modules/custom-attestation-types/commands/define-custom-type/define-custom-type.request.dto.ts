import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';

/** Type names as the CLI documents them: a letter or digit first, then letters, digits, `.`, `-`, `_`, `~`. */
export const CUSTOM_TYPE_NAME = /^[a-zA-Z0-9][a-zA-Z0-9.\-_~]*$/;

export class CustomTypeEvaluatorDto {
  /** `jq` (rules given) or `default` (no rules). */
  @IsOptional()
  @IsIn(['jq', 'default'])
  content_type?: 'jq' | 'default';

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(4096, { each: true })
  rules?: string[];
}

export class CustomTypeSummaryEntryDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  name: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(4096)
  expression: string;
}

/**
 * `data_json` of `POST /custom-attestation-types/{org}` as the CLI's `create attestation-type` sends it; the
 * JSON Schema comes as the `type_schema` file part.
 */
export class DefineCustomTypeRequestDto {
  @IsString()
  @MaxLength(256)
  @Matches(CUSTOM_TYPE_NAME, { message: `must match ${CUSTOM_TYPE_NAME.source}` })
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(4096)
  description?: string | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CustomTypeEvaluatorDto)
  evaluator?: CustomTypeEvaluatorDto | null;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CustomTypeSummaryEntryDto)
  summary?: CustomTypeSummaryEntryDto[] | null;
}
