import { FlowTemplateSpec } from '../domain/flow-template';
import { FlowRow } from '../persistence/flow.reader';

/** A flow as `GET /flows/{org}/{flow}` and the list show it; `tags` is always an object. */
export interface FlowResponse {
  name: string;
  description: string;
  visibility: string;
  org: string;
  template: FlowTemplateSpec | null;
  template_id: string | null;
  template_version: number | null;
  repo_url: string | null;
  tags: Record<string, string>;
  created_by: string;
  created_at: number;
  last_modified_at: number;
  last_deployment_at: number | null;
  html_url: string;
  archived: boolean;
  archived_at: number | null;
  /** Renames, oldest first: the names the flow had, who renamed it and when. */
  history: Array<{ event: 'renamed'; from: string; to: string; by: string; timestamp: number }>;
}

export function toFlowResponse(row: FlowRow, orgName: string, publicBaseUrl: string): FlowResponse {
  return {
    name: row.name,
    description: row.description ?? '',
    visibility: row.visibility,
    org: orgName,
    template: row.template_spec ?? null,
    template_id: row.template_id,
    template_version: row.template_version,
    repo_url: row.repo_url,
    tags: row.tags ?? {},
    created_by: row.created_by,
    created_at: Number(row.created_at),
    last_modified_at: Number(row.updated_at),
    last_deployment_at: null,
    html_url: `${publicBaseUrl}/${encodeURIComponent(orgName)}/flows/${encodeURIComponent(row.name)}`,
    archived: row.archived_at !== null,
    archived_at: row.archived_at === null ? null : Number(row.archived_at),
    history: (row.renames ?? []).map((r) => ({ event: 'renamed' as const, from: r.from, to: r.to, by: r.by, timestamp: Number(r.timestamp) })),
  };
}
