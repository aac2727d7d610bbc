import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { CompiledValidation } from '../../../../common/validation/compiled-validation';
import { IsDigestMapOrUnknown } from '../report-fields';

/** One Azure Web or Function app, as `kosli snapshot azure` sends it. */
export class AzureAppsArtifactDto {
  /** Image name -> digest; `""` when Azure does not know it. */
  @IsDigestMapOrUnknown()
  digests!: Record<string, string>;

  /** Where the digests came from. */
  @IsIn(['acr', 'logs', 'kosli-cli'])
  digests_source!: string;

  @IsString()
  @MaxLength(256)
  app_name!: string;

  @IsString()
  @MaxLength(256)
  app_kind!: string;

  @IsInt()
  creationTimestamp!: number;
}

@CompiledValidation()
export class AzureAppsReportDto {
  @IsOptional()
  @IsIn(['azure-apps'])
  type?: string | null;

  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => AzureAppsArtifactDto)
  artifacts!: AzureAppsArtifactDto[];
}
