import { ServiceAccountRow } from '../persistence/service-account.reader';
import { ServiceAccountRecord } from '../persistence/service-account.repository';

/** A service account as the API shows it (the open-source CLI prints name, description, privilege, created_at). */
export interface ServiceAccountResponse {
  name: string;
  description: string;
  privilege: string;
  created_by: string;
  created_at: number;
}

export function toServiceAccountResponse(row: ServiceAccountRow | ServiceAccountRecord): ServiceAccountResponse {
  return {
    name: row.name,
    description: row.description,
    privilege: row.role,
    created_by: row.created_by,
    created_at: Number(row.created_at),
  };
}
