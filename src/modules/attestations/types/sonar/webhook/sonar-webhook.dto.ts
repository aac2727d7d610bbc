import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { arrayOf, boolean, describe, nullable, object, oneOf, string, timestamp } from '../../../../../common/openapi/response-schema';

/** `POST /integrations/{org}/sonar`: how flows are named when a scan does not name one (`kosli_flow`). */
export class CreateSonarWebhookRequestDto {
  @IsOptional()
  @IsIn(['key', 'name'])
  flow_name_from?: 'key' | 'name';

  @IsOptional()
  @IsString()
  @MaxLength(64)
  @Matches(/^[a-zA-Z0-9.\-_~]*$/, { message: 'may hold only letters, digits and . - _ ~' })
  flow_name_prefix?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  @Matches(/^[a-zA-Z0-9.\-_~]*$/, { message: 'may hold only letters, digits and . - _ ~' })
  flow_name_suffix?: string;
}

export interface SonarWebhookResponse {
  hook_uid: string;
  /** Where SonarQube posts: `<base>/api/v2/webhooks/sonar/<hook_uid>`. */
  webhook_url: string;
  flow_name_from: 'key' | 'name';
  flow_name_prefix: string;
  flow_name_suffix: string;
  created_by: string;
  created_at: number;
  /** Only in the answer to its creation: SonarQube's webhook secret. */
  secret?: string;
}

const hook = {
  hook_uid: string,
  webhook_url: string,
  flow_name_from: oneOf('key', 'name'),
  flow_name_prefix: string,
  flow_name_suffix: string,
  created_by: string,
  created_at: timestamp,
};
export const SONAR_WEBHOOK_SCHEMA = object(hook);
export const SONAR_WEBHOOK_CREATED_SCHEMA = object({ ...hook, secret: describe(string, 'The webhook secret, shown once: give it to SonarQube') });
export const SONAR_WEBHOOK_LIST_SCHEMA = arrayOf(SONAR_WEBHOOK_SCHEMA);
export const SONAR_WEBHOOK_RECEIVED_SCHEMA = object({ message: string, attestation_id: nullable(string), is_compliant: boolean });
