import type { LiveArtifactRow } from '../persistence/live-artifacts.reader';

/** The reference's `RepoLiveStatusResponse`: what of a repo runs where, now. */
export interface RepoLiveStatusResponse {
  live_artifacts: Array<{
    environment_id: string;
    artifact_id: string;
    artifact_name: string;
    snapshot_index: number;
    compliance: 'COMPLIANT' | 'NON-COMPLIANT';
    started_at: number;
    fingerprint: string;
    commit_sha: string | null;
    _links: { environment: string; artifact: string };
  }>;
  _embedded: {
    artifacts: Array<{ id: string; fingerprint: string; commit_sha: string | null; commit_url: string | null }>;
    environments: Array<{ id: string; name: string; type: string }>;
  };
  _links: { self: string };
}

const enc = encodeURIComponent;

export function toRepoLiveStatus(rows: readonly LiveArtifactRow[], base: string, org: string, repo: string): RepoLiveStatusResponse {
  const artifacts = new Map<string, RepoLiveStatusResponse['_embedded']['artifacts'][number]>();
  const environments = new Map<string, RepoLiveStatusResponse['_embedded']['environments'][number]>();
  for (const r of rows) {
    artifacts.set(r.artifact_id, { id: r.artifact_id, fingerprint: r.fingerprint, commit_sha: r.git_commit, commit_url: r.commit_url });
    environments.set(r.environment_id, { id: r.environment_id, name: r.environment_name, type: r.environment_type });
  }
  return {
    live_artifacts: rows.map((r) => ({
      environment_id: r.environment_id,
      artifact_id: r.artifact_id,
      artifact_name: r.artifact_name,
      snapshot_index: r.last_snapshot,
      compliance: r.compliant ? 'COMPLIANT' : 'NON-COMPLIANT',
      started_at: r.started_at,
      fingerprint: r.fingerprint,
      commit_sha: r.git_commit,
      _links: {
        environment: `${base}/api/v2/environments/${enc(org)}/${enc(r.environment_name)}`,
        artifact: `${base}/api/v2/snapshots/${enc(org)}/${enc(r.environment_name)}/${r.last_snapshot}`,
      },
    })),
    _embedded: { artifacts: [...artifacts.values()], environments: [...environments.values()] },
    _links: { self: `${base}/api/v2/repos/${enc(org)}/live-artifacts/${repo.split('/').map(enc).join('/')}` },
  };
}
