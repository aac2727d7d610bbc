import { Type } from 'class-transformer';
import { ArrayUnique, IsArray, IsEmail, IsIn, IsObject, IsOptional, MaxLength, ValidateNested } from 'class-validator';
import { BETA_FEATURES } from '../../../../common/auth/principal';
import { REGIONS } from '../../../../common/config/app-config';
import { IsOrgName } from '../../../../common/validation/names';

export class OrganizationAdminDto {
  @IsEmail()
  @MaxLength(320)
  email: string;
}

export class CreateOrganizationRequestDto {
  @IsOrgName()
  name: string;

  @IsOptional()
  @IsIn(REGIONS)
  region?: string;

  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(BETA_FEATURES, { each: true })
  features?: string[];

  @IsObject()
  @ValidateNested()
  @Type(() => OrganizationAdminDto)
  admin: OrganizationAdminDto;
}
