import { Type } from 'class-transformer';
import { IsArray, IsInt, IsNumber, IsObject, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { AttestationCommonFieldsDto } from '../../dto/attestation-common-fields.dto';

export class SnykIssueLocationDto {
  @IsString()
  uri: string;

  /** The CLI leaves it out when SARIF gives no region. */
  @IsOptional()
  @IsString()
  lines?: string;
}

export class SnykFoundIssueDto {
  @IsString()
  id: string;

  @IsString()
  message: string;

  @IsOptional()
  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SnykIssueLocationDto)
  locations?: SnykIssueLocationDto[];

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  priority_score?: number | null;
}

export class SnykProjectScanResultDto {
  @IsInt()
  @Min(0)
  low_count: number;

  @IsInt()
  @Min(0)
  medium_count: number;

  @IsInt()
  @Min(0)
  high_count: number;

  @IsOptional()
  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SnykFoundIssueDto)
  low?: SnykFoundIssueDto[] | null;

  @IsOptional()
  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SnykFoundIssueDto)
  medium?: SnykFoundIssueDto[] | null;

  @IsOptional()
  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SnykFoundIssueDto)
  high?: SnykFoundIssueDto[] | null;
}

export class SnykToolDto {
  @IsString()
  name: string;

  @IsString()
  version: string;
}

export class SnykResultsDto {
  @IsOptional()
  @IsInt()
  schema_version?: number;

  @IsObject()
  @ValidateNested()
  @Type(() => SnykToolDto)
  tool: SnykToolDto;

  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => SnykProjectScanResultDto)
  results: SnykProjectScanResultDto[];
}

/** `data_json` of `kosli attest snyk`: the common fields and the CLI's summary of the SARIF (`snyk_results`). */
export class SnykAttestationRequestDto extends AttestationCommonFieldsDto {
  @IsObject()
  @ValidateNested()
  @Type(() => SnykResultsDto)
  snyk_results: SnykResultsDto;
}
