import { Type } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** Query of `GET /attestations/{org}/{flow}`; values arrive as strings. */
export class ListFlowAttestationsRequestDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  page?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  @Max(MAX_PER_PAGE, { message: `must not be greater than ${MAX_PER_PAGE}` })
  per_page?: number;

  /** Unix seconds (fraction allowed), inclusive. */
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a Unix timestamp in seconds' })
  from_timestamp?: number;

  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a Unix timestamp in seconds' })
  to_timestamp?: number;

  @IsOptional()
  @IsString()
  attestation_id?: string;
}
