import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { MAX_PAGE } from '../../../../common/pagination/page-envelope';
import { MAX_PER_PAGE } from '../list-flow-attestations/list-flow-attestations.request.dto';

/** Query of `GET /attestations/{org}`: one attestation by id, or the org's attestations a page at a time. */
export class FindOrgAttestationRequestDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  attestation_id?: string;

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
}
