import { Type } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';
import { MAX_INSTANT_SECONDS } from '../../../../common/moments/moment-expression';
import { MAX_PAGE } from '../../../../common/pagination/page-envelope';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

const UNIX_SECONDS_RANGE = `must be a Unix timestamp in seconds from 0 to ${MAX_INSTANT_SECONDS} (9999-12-31T23:59:59Z)`;

/** Query of `GET /attestations/{org}/{flow}`; values arrive as strings. */
export class ListFlowAttestationsRequestDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  @Max(MAX_PAGE, { message: `must not be greater than ${MAX_PAGE}` })
  page?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  @Max(MAX_PER_PAGE, { message: `must not be greater than ${MAX_PER_PAGE}` })
  per_page?: number;

  /** Unix seconds (fraction allowed), inclusive, from 0 (1970) to the end of 9999. */
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a Unix timestamp in seconds' })
  @Min(0, { message: UNIX_SECONDS_RANGE })
  @Max(MAX_INSTANT_SECONDS, { message: UNIX_SECONDS_RANGE })
  from_timestamp?: number;

  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a Unix timestamp in seconds' })
  @Min(0, { message: UNIX_SECONDS_RANGE })
  @Max(MAX_INSTANT_SECONDS, { message: UNIX_SECONDS_RANGE })
  to_timestamp?: number;

  @IsOptional()
  @IsString()
  attestation_id?: string;
}
