import { IsEnvironmentName } from '../../../../common/validation/names';

/** `PUT /environments/{org}/{logical}/join`. */
export class JoinEnvironmentRequestDto {
  @IsEnvironmentName()
  physical_env_name!: string;
}
