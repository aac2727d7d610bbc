import { ControlRow } from '../persistence/control.repository';

/** The control record: what every control route answers with. */
export interface ControlResponse {
  identifier: string;
  name: string;
  version: number;
  created_by: string;
  description: string;
  links: Record<string, string>;
  created_at: number;
  last_modified_at: number;
  tags: Record<string, string>;
  archived: boolean;
  /**
   * The names of the org's policies whose latest version has a decision rule for this control (by name), then
   * the digests (`sha256:<hex>`) of the evaluation policies that decided on it, most recent first.
   */
  policies_referencing: string[];
}

/** `policyNames`: the named policies referencing the control (PolicyNamesOfControls), listed before the digests. */
export function toControlResponse(row: ControlRow, policyNames: readonly string[] = []): ControlResponse {
  return {
    identifier: row.identifier,
    name: row.name,
    version: row.version,
    created_by: row.created_by,
    description: row.description ?? '',
    links: row.links ?? {},
    created_at: Number(row.created_at),
    last_modified_at: Number(row.updated_at),
    tags: row.tags ?? {},
    archived: row.archived,
    policies_referencing: [...policyNames, ...(row.policies_referencing ?? [])],
  };
}

/** `GET /controls/{org}`: the shape the CLI's `list controls` reads. */
export interface ControlPage {
  controls: ControlResponse[];
  page: number;
  per_page: number;
  total_pages: number;
  total_count: number;
}
