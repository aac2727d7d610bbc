import { Type } from 'class-transformer';
import { IsArray, IsInt, IsNumber, IsObject, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { AttestationCommonFieldsDto } from '../../dto/attestation-common-fields.dto';

/** One suite's counts as the CLI computed them from the report (`junit_results[]`). */
export class JunitResultDto {
  @IsString()
  name: string;

  @IsInt()
  @Min(0)
  failures: number;

  @IsInt()
  @Min(0)
  errors: number;

  @IsInt()
  @Min(0)
  skipped: number;

  @IsInt()
  @Min(0)
  total: number;

  @IsNumber({ allowNaN: false, allowInfinity: false })
  duration: number;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  timestamp?: number | null;
}

/**
 * `data_json` of `kosli attest junit`: the common fields and `junit_results` (required, the CLI's per-suite
 * counts). The XML reports themselves come as the attachment (one file, or a gzipped tar of several).
 */
export class JunitAttestationRequestDto extends AttestationCommonFieldsDto {
  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => JunitResultDto)
  junit_results: JunitResultDto[];
}
