import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { AttestationCommonFieldsDto } from '../../dto/attestation-common-fields.dto';

/** One issue reference the CLI found in the commit or branch, and what Jira said about it. */
export class JiraResultDto {
  @IsString()
  issue_id: string;

  @IsString()
  issue_url: string;

  @IsBoolean()
  issue_exists: boolean;

  /** Jira's `fields` of the issue, as many as `--jira-issue-fields` asked for (free-form). */
  @IsOptional()
  @IsObject()
  issue_fields?: Record<string, unknown>;
}

/** `data_json` of `kosli attest jira`: the common fields and `jira_results` (required; empty when none was found). */
export class JiraAttestationRequestDto extends AttestationCommonFieldsDto {
  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => JiraResultDto)
  jira_results: JiraResultDto[];
}
