import { IsInt, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { MAX_EXPIRES_AT_SECONDS, MAX_ROTATION_GRACE_HOURS } from '../../domain/key-lifetime';

export class RotateApiKeyRequestDto {
  /** How long the old key keeps working (default 24 hours; 0 stops it at once). */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_ROTATION_GRACE_HOURS)
  grace_period_hours?: number;

  /** The new key's expiry, as on create: absent, null or 0 means never. */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_EXPIRES_AT_SECONDS)
  expires_at?: number | null;
}
