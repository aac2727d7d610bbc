/** One artifact a sha matched, as `kosli search` prints it. */
export interface FoundArtifact {
  fingerprint: string;
  name: string;
  has_provenance: boolean;
  git_commit: string;
  /** The flow's legacy name. */
  pipeline: string;
  flow: string;
  trail: string;
  template_reference_name: string;
  build_url: string;
  commit_url: string;
  compliance_state: string;
  running_in: string[];
  exited_from: string[];
  html_url: string;
  api_url: string;
  history: Array<{ event: string; timestamp: number }>;
}

export interface ResolvedShas {
  type: 'fingerprint' | 'commit';
  count: number;
  matches: string[];
}

/** What a sha resolved to: one fingerprint, one commit, or several of either (`multiple`). */
export interface SearchResponse {
  resolved_to: {
    type: 'fingerprint' | 'commit' | 'multiple';
    /** The one full sha, when the value resolved to one; otherwise the first match. */
    full_match: string;
    fingerprints: ResolvedShas;
    commits: ResolvedShas;
  };
  artifacts: FoundArtifact[];
}
