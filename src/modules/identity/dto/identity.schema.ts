import { describe, nullable, object, oneOf, string, timestamp } from '../../../common/openapi/response-schema';

const neverExpires = describe(timestamp, 'Unix seconds; 0 means never');

/** ApiKeyResponse (api-key.response.ts): never the key's value. */
export const API_KEY_SCHEMA = object({ id: string, description: string, created_at: timestamp, expires_at: neverExpires, last_used_at: nullable(timestamp) });

/** CreatedApiKeyResponse: the only answer that shows the key. */
export const CREATED_API_KEY_SCHEMA = object(
  {
    id: string,
    key: describe(string, 'The key; shown once'),
    description: string,
    created_at: timestamp,
    expires_at: neverExpires,
    grace_period_expires_at: describe(timestamp, 'Rotate only: when the key it replaces stops working'),
  },
  ['grace_period_expires_at'],
);

/** CredentialEventResponse (credential-event.response.ts): public metadata only. */
export const CREDENTIAL_EVENT_SCHEMA = object({
  id: string,
  type: oneOf('service_account_created', 'service_account_changed', 'service_account_deleted', 'api_key_created', 'api_key_rotated', 'api_key_revoked', 'api_key_admitted'),
  service_account: nullable(string),
  user: nullable(string),
  privilege: nullable(string),
  description: nullable(string),
  key: nullable(object({ id: string, description: string, created_at: timestamp, expires_at: neverExpires })),
  replaced_key: nullable(object({ id: string, expires_at: timestamp })),
  actor: string,
  recorded_at: timestamp,
});
