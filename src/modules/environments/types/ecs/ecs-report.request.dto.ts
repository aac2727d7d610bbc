import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { CompiledValidation } from '../../../../common/validation/compiled-validation';
import { IsDigestMapOrUnknown } from '../report-fields';

/** One task, as `kosli snapshot ecs` sends it (a task that is not running has no digests). */
export class EcsTaskDto {
  @IsString()
  taskArn!: string;

  @IsOptional()
  @IsString()
  cluster_name?: string | null;

  @IsOptional()
  @IsString()
  service_name?: string | null;

  /** Image name -> image digest; `""` when AWS does not know the digest. */
  @IsDigestMapOrUnknown()
  digests!: Record<string, string>;

  @IsInt()
  creationTimestamp!: number;
}

@CompiledValidation()
export class EcsReportDto {
  @IsOptional()
  @IsIn(['ECS'])
  type?: string | null;

  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => EcsTaskDto)
  artifacts!: EcsTaskDto[];
}
