import { IsOptional, IsString, MaxLength } from 'class-validator';

/** `GET /environments/{org}/{env}/diff?from=&to=`: two snapshot expressions. */
export class DiffSnapshotsQueryDto {
  /** Default `~1` (the snapshot before the latest). */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  from?: string;

  /** Default `latest`. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  to?: string;
}
