import { IsString, Matches, MaxLength, MinLength } from 'class-validator';

/** `PUT /allowlists/{org}/{env}`: the reference's AllowlistPutInput. */
export class AllowArtifactRequestDto {
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  artifact_name: string;

  @IsString()
  @Matches(/^[a-f0-9]{64}$/, { message: 'artifact_fingerprint must be 64 lowercase hex characters (sha256)' })
  artifact_fingerprint: string;

  @IsString()
  @MinLength(1)
  @MaxLength(10_000)
  description: string;
}
