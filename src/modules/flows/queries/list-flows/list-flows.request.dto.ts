import { IsIn, IsOptional, Matches } from 'class-validator';
import { PageQueryDto } from '../../../../common/pagination/page-envelope';

export class ListFlowsQueryDto extends PageQueryDto {
  /** Flows whose name contains this string (letters, digits and '-', as the reference allows). */
  @IsOptional()
  @Matches(/^[a-zA-Z0-9-]*$/)
  search_by_name?: string;

  @IsOptional()
  @IsIn(['true', 'false'])
  case_sensitive?: string;

  /** `true`: the archived flows (hidden otherwise). */
  @IsOptional()
  @IsIn(['true', 'false'])
  archived?: string;
}
