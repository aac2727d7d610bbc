import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { CompiledValidation } from '../../../../common/validation/compiled-validation';
import { IsDigestMap } from '../report-fields';

/** One function, as `kosli snapshot lambda` sends it. */
export class LambdaArtifactDto {
  @IsDigestMap()
  digests!: Record<string, string>;

  @IsInt()
  creationTimestamp!: number;
}

@CompiledValidation()
export class LambdaReportDto {
  @IsOptional()
  @IsIn(['lambda'])
  type?: string | null;

  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => LambdaArtifactDto)
  artifacts!: LambdaArtifactDto[];
}
