import { IsOptional, IsString, Matches } from 'class-validator';
import { PageQueryDto } from '../../../../common/pagination/page-envelope';

/** `GET /trails/{org}/{flow}`: paging only. */
export class ListFlowTrailsQueryDto extends PageQueryDto {}

/** `GET /trails/{org}?flow=`: the reference's filters. */
export class ListOrgTrailsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsString()
  flow?: string;

  /** `key=value` (or `key:value`): trails of flows carrying that tag. */
  @IsOptional()
  @Matches(/^[^=:]+[=:].*$/)
  flow_tag?: string;

  /** Trails that hold an artifact with this fingerprint. */
  @IsOptional()
  @Matches(/^[a-f0-9]{64}$/)
  fingerprint?: string;
}
