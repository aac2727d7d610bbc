import { IsOptional, IsString, MaxLength } from 'class-validator';

/** `?branch=`: only reports whose commit info names this branch. */
export class GetLatestCommitQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(256)
  branch?: string;
}
