import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ROLES } from '../../../../common/auth/principal';

/** Only the fields sent change (the CLI sends the flags given). */
export class UpdateServiceAccountRequestDto {
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @IsOptional()
  @IsIn(ROLES)
  privilege?: string;
}
