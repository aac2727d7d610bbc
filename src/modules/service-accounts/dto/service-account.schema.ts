import { object, string, timestamp } from '../../../common/openapi/response-schema';

/** ServiceAccountResponse (service-account.response.ts). */
export const SERVICE_ACCOUNT_SCHEMA = object({ name: string, description: string, privilege: string, created_by: string, created_at: timestamp });
