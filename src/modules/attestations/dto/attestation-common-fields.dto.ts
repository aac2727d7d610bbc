import { Type } from 'class-transformer';
import { IsArray, IsObject, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';
import { IsAnnotations, IsExternalUrls, IsObjectOrArray } from '../../../common/evidence/evidence-validators';
import { GitCommitInfoDto, RepoInfoDto } from '../../../common/evidence/evidence-common.dto';
import { IsAttestationName } from '../../../common/validation/names';

export const FINGERPRINT = /^[a-f0-9]{64}$/;

/**
 * The fields every attestation type's `data_json` shares (the CLI sends them for every type): the slot it
 * fills (`attestation_name`, optionally against an artifact by fingerprint or by template name), and the
 * evidence's context. Every field but `attestation_name` may be absent or null.
 */
export abstract class AttestationCommonFieldsDto {
  @IsAttestationName()
  attestation_name: string;

  @IsOptional()
  @IsString()
  @Matches(FINGERPRINT, { message: 'must be 64 lowercase hex characters' })
  artifact_fingerprint?: string | null;

  @IsOptional()
  @IsArray()
  @IsAttestationName({ each: true })
  target_artifacts?: string[] | null;

  @IsOptional()
  @IsString()
  description?: string | null;

  @IsOptional()
  @IsString()
  origin_url?: string | null;

  @IsOptional()
  @IsExternalUrls()
  external_urls?: Record<string, unknown> | null;

  @IsOptional()
  @IsAnnotations()
  annotations?: Record<string, string> | null;

  @IsOptional()
  @IsObjectOrArray()
  user_data?: Record<string, unknown> | unknown[] | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => GitCommitInfoDto)
  git_commit_info?: GitCommitInfoDto | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RepoInfoDto)
  repo_info?: RepoInfoDto | null;
}

/** The common columns of an attestation, from the common fields every type's `data_json` shares. */
export function commonRecordFields(data: AttestationCommonFieldsDto) {
  return {
    attestationName: data.attestation_name,
    artifactFingerprint: data.artifact_fingerprint,
    targetArtifacts: data.target_artifacts,
    description: data.description,
    originUrl: data.origin_url,
    externalUrls: data.external_urls,
    annotations: data.annotations,
    userData: data.user_data,
    gitCommitInfo: data.git_commit_info ? { ...data.git_commit_info } : null,
    repoInfo: data.repo_info ? { ...data.repo_info } : null,
  };
}
