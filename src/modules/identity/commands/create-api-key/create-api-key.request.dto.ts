import { IsNumber, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { MAX_EXPIRES_AT_SECONDS } from '../../domain/key-lifetime';

export class CreateApiKeyRequestDto {
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  description: string;

  /** Unix seconds; absent, null or 0: the key never expires. A time in the past is refused. */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_EXPIRES_AT_SECONDS)
  expires_at?: number | null;
}
