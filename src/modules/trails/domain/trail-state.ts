import type { StoredTemplate } from '../../flows/flows.module';
import type { ReportedArtifact, TrailCompliance } from './compliance';

/** A trail row with what its read shapes need. Timestamps are Unix seconds. */
export interface TrailRecord {
  id: string;
  org_id: string;
  flow_id: string;
  flow_name: string;
  flow_tags: Record<string, string> | null;
  name: string;
  description: string;
  template_id: string | null;
  git_commit_info: Record<string, unknown> | null;
  repo_info: Record<string, unknown> | null;
  repo_id: string | null;
  user_data: unknown;
  origin_url: string | null;
  external_urls: Record<string, { href: string; fingerprint?: string }> | null;
  last_moment: number;
  created_by: string;
  created_at: number;
  updated_at: number;
}

/** One entry of GET trail's `events` (a moment, described the way the reference and the CLI name it). */
export type TrailEvent = { type: string; timestamp: number; moment_number: number } & Record<string, unknown>;

export interface MomentRecord {
  momentNumber: number;
  createdAt: number;
  templateId: string | null;
  /** The trail's own fields as they were at this moment (null for trails older than field versions). */
  fields: TrailFields | null;
  /** The repo those fields name (the service's id), if it is registered. */
  repoId?: string | null;
}

/** What `begin trail` can change on a trail; every moment that changes them keeps a copy. */
export interface TrailFields {
  description: string;
  git_commit_info: Record<string, unknown> | null;
  repo_info: Record<string, unknown> | null;
  user_data: unknown;
  origin_url: string | null;
  external_urls: Record<string, { href: string; fingerprint?: string }> | null;
}

/** A trail's compliance state as of one moment (or now). */
export interface TrailState {
  template: StoredTemplate | null;
  compliance: TrailCompliance;
  /** Latest report per artifact template name, with the fields the read shapes show. */
  artifacts: Map<string, ArtifactRecord>;
}

export interface ArtifactRecord extends ReportedArtifact {
  filename: string;
  moment_number: number;
  created_at: number;
}
