import { IsArray, IsIn, IsObject } from 'class-validator';
import { AttestationCommonFieldsDto } from '../../dto/attestation-common-fields.dto';

export const GIT_PROVIDERS = ['github', 'gitlab', 'bitbucket', 'azure'] as const;

/**
 * `data_json` of `kosli attest pullrequest <provider>` (every provider posts to the one `pull_request` route):
 * the common fields, `git_provider` and `pull_requests` (required; empty when the commit has none). Each item is
 * one of the reference's two shapes, told apart by `commits` (checked by PULL_REQUEST_SHAPE, keyed by path).
 */
export class PullRequestAttestationRequestDto extends AttestationCommonFieldsDto {
  @IsIn(GIT_PROVIDERS)
  git_provider: (typeof GIT_PROVIDERS)[number];

  @IsArray()
  @IsObject({ each: true })
  pull_requests: Array<Record<string, unknown>>;
}
