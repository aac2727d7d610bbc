import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** Policy names: the reference's pattern. */
export const POLICY_NAME = /^[a-zA-Z0-9][a-zA-Z0-9\-_.~]*$/;

/**
 * The `payload` field of `PUT /policies/{org}` (the YAML is the `policy_file` part). An optional field sent as
 * null is as if it were not sent (a re-PUT keeps the stored description).
 */
export class PutPolicyPayloadDto {
  @IsString()
  @MaxLength(256)
  @Matches(POLICY_NAME, { message: `name must match ${POLICY_NAME.source}` })
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string | null;

  @IsOptional()
  @IsIn(['env'])
  type?: 'env' | null;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  comment?: string | null;
}
