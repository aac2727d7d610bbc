import { arrayOf, describe, object, string, timestamp } from '../../../common/openapi/response-schema';

const organization = { name: string, region: string, features: arrayOf(string), created_at: timestamp };

/** OrganizationResponse (organization.response.ts). */
export const ORGANIZATION_SCHEMA = object(organization);
/** GET /organizations/{org}: the org with the caller's role. */
export const MEMBER_ORGANIZATION_SCHEMA = object({ ...organization, role: string, is_default: { type: 'boolean' } });
/** The new org with its first admin and that admin's key, shown once. */
export const CREATED_ORGANIZATION_SCHEMA = object({
  ...organization,
  admin: object({ email: string, api_key: describe(string, 'Shown once') }),
});
export const ADDED_MEMBER_SCHEMA = object({ email: string, role: string, api_key: describe(string, 'Shown once') });
