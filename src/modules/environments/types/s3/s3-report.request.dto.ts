import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { CompiledValidation } from '../../../../common/validation/compiled-validation';
import { IsDigestMap } from '../report-fields';

/** What `kosli snapshot s3` sends: the bucket's content as one artifact, and when it last changed. */
export class S3ArtifactDto {
  @IsDigestMap()
  digests!: Record<string, string>;

  @IsInt()
  creationTimestamp!: number;
}

@CompiledValidation()
export class S3ReportDto {
  @IsOptional()
  @IsIn(['S3'])
  type?: string | null;

  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => S3ArtifactDto)
  artifacts!: S3ArtifactDto[];
}
