import { IsEmail, IsIn, MaxLength } from 'class-validator';
import { ROLES } from '../../../../common/auth/principal';

export class AddMemberRequestDto {
  @IsEmail()
  @MaxLength(320)
  email: string;

  @IsIn(ROLES)
  role: string;
}
