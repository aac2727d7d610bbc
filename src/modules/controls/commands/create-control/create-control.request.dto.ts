import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { IsStringMap } from '../../../../common/validation/string-map';

/** Control identifiers: what a decision names (`decision.control`). */
export const CONTROL_IDENTIFIER = /^[a-zA-Z0-9\-._~]+$/;

export class CreateControlRequestDto {
  @IsString()
  @MaxLength(256)
  @Matches(CONTROL_IDENTIFIER, { message: `identifier must match ${CONTROL_IDENTIFIER.source}` })
  identifier: string;

  @IsString()
  @MinLength(1)
  @MaxLength(256)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string | null;

  /** label -> URL (a runbook, the framework's text ...) */
  @IsOptional()
  @IsStringMap({ maxEntries: 50, maxValueLength: 2048 })
  links?: Record<string, string> | null;
}
