import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { CompiledValidation } from '../../../../common/validation/compiled-validation';
import { IsDigestMap } from '../report-fields';

/** One pod, as `kosli snapshot k8s` sends it. */
export class K8sPodDto {
  @IsString()
  podName!: string;

  @IsString()
  namespace!: string;

  /** Image name -> image digest, one entry per distinct image of the pod's containers. */
  @IsDigestMap()
  digests!: Record<string, string>;

  @IsInt()
  creationTimestamp!: number;

  /** The pod's owner references, kept as sent (`apiVersion`, `kind`, `name`, `uid`, `controller` ...). */
  @IsOptional()
  @IsArray()
  @IsObject({ each: true })
  owners?: Array<Record<string, unknown>> | null;
}

@CompiledValidation()
export class K8sReportDto {
  @IsOptional()
  @IsIn(['K8S'])
  type?: string | null;

  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => K8sPodDto)
  artifacts!: K8sPodDto[];
}
