import { IsOptional, IsString, MaxLength } from 'class-validator';

/** `kosli tag repo --provider` resolves a name shared by repos of several providers. */
export class GetRepoQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  provider?: string;
}
