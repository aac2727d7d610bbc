import { IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsFlowName } from '../../../../common/validation/names';

export const VISIBILITIES = ['public', 'private'];

/** `data_json` of `PUT /flows/{org}/template_file` (the template itself is the file part). */
export class CreateFlowDataDto {
  @IsFlowName()
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string;

  @IsOptional()
  @IsIn(VISIBILITIES)
  visibility?: string;

  @IsOptional()
  @IsString()
  repo_url?: string | null;

  /** Legacy list of expected evidence names; accepted for the CLI, not used for compliance. */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  template?: string[];
}

/** `PUT /flows/{org}` (JSON): the same fields. */
export class CreateFlowRequestDto extends CreateFlowDataDto {}
