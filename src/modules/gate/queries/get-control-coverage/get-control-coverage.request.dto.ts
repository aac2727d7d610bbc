import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../../common/pagination/page-envelope';

export class GetControlCoverageQueryDto extends PageQueryDto {
  /** Environments whose name contains this text (case-insensitive). */
  @IsOptional()
  @IsString()
  @MaxLength(256)
  search?: string;

  /** `true`: only covered environments; `false`: only those not covered. */
  @IsOptional()
  @IsIn(['true', 'false'])
  covered?: string;
}
