import { Type } from 'class-transformer';
import { ArrayUnique, IsArray, IsEmail, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { BETA_FEATURES } from '../../../../common/auth/principal';
import { REGIONS } from '../../../../common/config/app-config';

export const ORG_NAME_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9\-_.~]*$/;

export class OrganizationAdminDto {
  @IsEmail()
  @MaxLength(320)
  email: string;
}

export class CreateOrganizationRequestDto {
  @IsString()
  @Matches(ORG_NAME_PATTERN)
  @MaxLength(64)
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
