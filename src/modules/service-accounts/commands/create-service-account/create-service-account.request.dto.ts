import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ROLES } from '../../../../common/auth/principal';
import { SERVICE_ACCOUNT_NAME, SERVICE_ACCOUNT_NAME_MAX } from '../../domain/service-account-name';

export class CreateServiceAccountRequestDto {
  @IsString()
  @MaxLength(SERVICE_ACCOUNT_NAME_MAX)
  @Matches(SERVICE_ACCOUNT_NAME, { message: `must match ${SERVICE_ACCOUNT_NAME.source}` })
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string;

  /** The account's role in the org. */
  @IsIn(ROLES)
  privilege: string;
}
