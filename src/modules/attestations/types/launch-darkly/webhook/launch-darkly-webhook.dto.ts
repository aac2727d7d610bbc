import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsName } from '../../../../../common/validation/names';
import { arrayOf, boolean, describe, nullable, object, string, timestamp } from '../../../../../common/openapi/response-schema';

/**
 * `POST /integrations/{org}/launch-darkly`: where the hook records flag changes. `flow_name` is the flow;
 * `trail_name` is a fixed trail name or a template with `{flag}`, `{environment}` and `{project}`.
 */
export class CreateLaunchDarklyWebhookRequestDto {
  @IsName('flow')
  flow_name: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(/^(?:[a-zA-Z0-9]|\{(?:flag|environment|project)\})(?:[a-zA-Z0-9\-_.~]|\{(?:flag|environment|project)\})*$/, {
    message: 'must be a trail name, with {flag}, {environment} or {project} where the change fills them in',
  })
  trail_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, { message: 'must be an http(s) URL' })
  app_url?: string;
}

export interface LaunchDarklyWebhookResponse {
  hook_uid: string;
  /** Where LaunchDarkly posts: `<base>/api/v2/webhooks/launch-darkly/<hook_uid>`. */
  webhook_url: string;
  flow_name: string;
  trail_name: string;
  app_url: string;
  created_by: string;
  created_at: number;
  /** Only in the answer to its creation: the secret to give LaunchDarkly ("Sign this webhook"). */
  secret?: string;
}

const hook = {
  hook_uid: string,
  webhook_url: string,
  flow_name: string,
  trail_name: describe(string, 'A trail name, or a template with {flag}, {environment}, {project}'),
  app_url: string,
  created_by: string,
  created_at: timestamp,
};
export const LAUNCH_DARKLY_WEBHOOK_SCHEMA = object(hook);
export const LAUNCH_DARKLY_WEBHOOK_CREATED_SCHEMA = object({ ...hook, secret: describe(string, 'The webhook secret, shown once: give it to LaunchDarkly') });
export const LAUNCH_DARKLY_WEBHOOK_LIST_SCHEMA = arrayOf(LAUNCH_DARKLY_WEBHOOK_SCHEMA);
export const LAUNCH_DARKLY_WEBHOOK_RECEIVED_SCHEMA = object({ message: string, attestation_id: nullable(string), is_compliant: nullable(boolean) });
