import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';

/** Largest tree index the routes accept (PostgreSQL bigint, JavaScript safe integer). */
const MAX_INDEX = Number.MAX_SAFE_INTEGER;
export const MAX_ENTRIES = 1000;

export class CheckpointRequestDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(0, { message: 'must be at least 0' })
  @Max(MAX_INDEX, { message: `must not be greater than ${MAX_INDEX}` })
  size?: number;
}

export class EntriesRequestDto {
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(0, { message: 'must be at least 0' })
  @Max(MAX_INDEX, { message: `must not be greater than ${MAX_INDEX}` })
  start!: number;

  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  @Max(MAX_ENTRIES, { message: `must not be greater than ${MAX_ENTRIES}` })
  limit!: number;
}

/** `index` or `leaf_hash` (64 hex digits or base64 of 32 bytes), and `tree_size`. */
export class InclusionRequestDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(0, { message: 'must be at least 0' })
  @Max(MAX_INDEX, { message: `must not be greater than ${MAX_INDEX}` })
  index?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  leaf_hash?: string;

  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  @Max(MAX_INDEX, { message: `must not be greater than ${MAX_INDEX}` })
  tree_size!: number;
}

/** RFC 9162 defines consistency from a non-empty tree: `first` is at least 1. */
export class ConsistencyRequestDto {
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1 (consistency is proved from a non-empty tree)' })
  @Max(MAX_INDEX, { message: `must not be greater than ${MAX_INDEX}` })
  first!: number;

  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  @Max(MAX_INDEX, { message: `must not be greater than ${MAX_INDEX}` })
  second!: number;
}

export class LookupRequestDto {
  @IsString()
  @MinLength(1)
  kind!: string;

  @IsString()
  @MinLength(1)
  id!: string;
}
