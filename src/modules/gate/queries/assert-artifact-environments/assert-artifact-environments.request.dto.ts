import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** As for one environment's assertion, `flow_name` narrows the trails looked at. */
export class AssertArtifactEnvironmentsQueryDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  flow_name?: string;
}
