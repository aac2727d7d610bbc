import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../../common/pagination/page-envelope';
import { IsFlowName } from '../../../../common/validation/names';

/** `GET /artifacts/{org}`: the reference's filters. */
export class ListArtifactsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsFlowName()
  flow_name?: string;

  /** The repo's name as reported in `repo_info.name` (`owner/repo`). */
  @IsOptional()
  @IsString()
  @MaxLength(512)
  repo_name?: string;
}

/** `GET /artifacts/{org}/{flow}`: paging only. */
export class ListFlowArtifactsQueryDto extends PageQueryDto {}
