import { OrganizationEntity } from '../persistence/organization.entity';

export interface OrganizationResponse {
  name: string;
  region: string;
  features: string[];
  created_at: number;
}

export function toOrganizationResponse(org: OrganizationEntity): OrganizationResponse {
  return {
    name: org.name,
    region: org.region,
    features: [...org.features].sort(),
    created_at: org.createdAt.getTime() / 1000,
  };
}
