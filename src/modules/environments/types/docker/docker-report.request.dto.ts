import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { CompiledValidation } from '../../../../common/validation/compiled-validation';
import { IsDigestMap } from '../report-fields';

/** One running container, as `kosli snapshot docker` sends it. */
export class DockerArtifactDto {
  @IsDigestMap()
  digests!: Record<string, string>;

  @IsInt()
  creationTimestamp!: number;
}

@CompiledValidation()
export class DockerReportDto {
  @IsOptional()
  @IsIn(['docker'])
  type?: string | null;

  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => DockerArtifactDto)
  artifacts!: DockerArtifactDto[];
}
