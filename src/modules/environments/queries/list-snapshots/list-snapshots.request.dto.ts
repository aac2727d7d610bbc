import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../../common/pagination/page-envelope';

/** The query `kosli list snapshots` sends. */
export class ListSnapshotsQueryDto extends PageQueryDto {
  /** Two snapshot expressions joined by `..` (default `1..NOW`). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  interval?: string;

  /** `true`: oldest first (default: newest first). */
  @IsOptional()
  @Matches(/^(true|false)$/i)
  reverse?: string;
}
