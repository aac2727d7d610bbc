import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';

export interface DiffEnvironmentsProps extends OrgScope {
  snappish1: string;
  snappish2: string;
}

/** One artifact of the CLI's diff (`DiffArtifact` in `kosli diff snapshots`). */
export interface CliDiffArtifact {
  fingerprint: string;
  flow: string;
  name: string;
  commit_url: string;
  most_recent_timestamp: number;
  instance_count: number;
  s1_instance_count: number;
  s2_instance_count: number;
  pods: string[];
}

/** The response `kosli diff snapshots` reads. */
export interface CliDiffResponse {
  snappish1: { snapshot_id: string; artifacts: CliDiffArtifact[] };
  snappish2: { snapshot_id: string; artifacts: CliDiffArtifact[] };
  changed: { artifacts: CliDiffArtifact[] };
  'not-changed': { artifacts: CliDiffArtifact[] };
}

/** `GET /env-diff/{org}?snappish1=&snappish2=`: two snapshots, of one environment or of two. */
export class DiffEnvironmentsQuery extends OrgQuery<DiffEnvironmentsProps, CliDiffResponse> {}
