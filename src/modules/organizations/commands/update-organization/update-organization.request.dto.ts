import { ArrayUnique, IsArray, IsIn } from 'class-validator';
import { BETA_FEATURES } from '../../../../common/auth/principal';

export class UpdateOrganizationRequestDto {
  @IsArray()
  @ArrayUnique()
  @IsIn(BETA_FEATURES, { each: true })
  features: string[];
}
