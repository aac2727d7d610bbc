import { IsFlowName } from '../../../../common/validation/names';

/** What `kosli rename flow OLD NEW` sends. */
export class RenameFlowRequestDto {
  @IsFlowName()
  new_name!: string;
}
