import { IsString, MinLength } from 'class-validator';

export class FindOrgAttestationRequestDto {
  @IsString()
  @MinLength(1)
  attestation_id: string;
}
