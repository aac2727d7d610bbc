import { IsOptional, IsString, MaxLength } from 'class-validator';

/** `?trail=`: only reports to this trail (what `kosli get artifact --trail` sends). */
export class GetArtifactsQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(256)
  trail?: string;
}
