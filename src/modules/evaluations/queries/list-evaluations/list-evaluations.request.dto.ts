import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../../common/pagination/page-envelope';

export class ListEvaluationsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(['pending', 'completed', 'failed'])
  status?: string;

  /** evaluations whose decision names this control */
  @IsOptional()
  @IsString()
  @MaxLength(256)
  control?: string;
}
