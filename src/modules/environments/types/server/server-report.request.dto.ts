import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { CompiledValidation } from '../../../../common/validation/compiled-validation';
import { IsDigestMap } from '../report-fields';

/** One artifact found on the server, as `kosli snapshot server|path|paths` sends it. */
export class ServerArtifactDto {
  @IsDigestMap()
  digests!: Record<string, string>;

  @IsInt()
  creationTimestamp!: number;
}

@CompiledValidation()
export class ServerReportDto {
  @IsOptional()
  @IsIn(['server'])
  type?: string | null;

  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ServerArtifactDto)
  artifacts!: ServerArtifactDto[];
}
