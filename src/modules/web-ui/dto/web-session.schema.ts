import { describe, object, oneOf, string } from '../../../common/openapi/response-schema';

const principal = object({ kind: oneOf('user', 'service_account'), name: describe(string, 'e-mail of a user, name of a service account') });

export const WEB_SESSION_SCHEMA = principal;
export const STARTED_WEB_SESSION_SCHEMA = object({ ...principal.properties as Record<string, never>, expires_at: describe(string, 'RFC 3339: when the session ends at the latest') });
