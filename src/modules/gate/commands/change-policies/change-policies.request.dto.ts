import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Matches, MaxLength } from 'class-validator';

const POLICY_NAME = /^[a-zA-Z0-9][a-zA-Z0-9\-_.~]*$/;

/** The body `kosli attach-policy` / `detach-policy` sends: `{"policy_names": ["prod-requirements"]}`. */
export class ChangePoliciesRequestDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(256, { each: true })
  @Matches(POLICY_NAME, { each: true, message: `each policy name must match ${POLICY_NAME.source}` })
  policy_names: string[];
}
