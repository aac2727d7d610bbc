import { IsEnvironmentName } from '../../../../common/validation/names';

/** What `kosli rename environment OLD NEW` sends. */
export class RenameEnvironmentRequestDto {
  @IsEnvironmentName()
  new_name!: string;
}
