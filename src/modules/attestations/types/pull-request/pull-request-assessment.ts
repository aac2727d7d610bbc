import { Assessment, AssessmentInput } from '../attestation-type';
import { anyOf, arrayOf, bool, checkShape, nullable, num, object, pattern, Shape, str } from '../evidence/shape';
import { PullRequestAttestationRequestDto } from './pull-request-attestation.request.dto';

const SHA1 = /^[a-f0-9]{40}$/;
const approver = object({ username: str }, { state: nullable(str), timestamp: nullable(num) });
/** A commit of a PR as the CLI sends it (the reference's GitCommit, plus signature fields; extra fields allowed). */
const commit = object(
  { sha1: str },
  {
    message: nullable(str),
    author: nullable(str),
    author_username: nullable(str),
    branch: nullable(str),
    timestamp: nullable(num),
    url: nullable(str),
    parents: nullable(arrayOf(str)),
    verified: nullable(bool),
    signature_state: nullable(str),
  },
  true,
);
/** V2 (with commits). `title`/`head_ref` may be absent and `base_ref` present: the CLI omits and adds them. */
const prV2 = object(
  { url: str, state: str, author: str, commits: arrayOf(commit) },
  {
    title: str,
    created_at: num,
    merged_at: nullable(num),
    head_ref: str,
    base_ref: str,
    merge_commit: nullable(anyOf('40 lowercase hex characters or empty', pattern(SHA1, 'a sha1'), pattern(/^$/, 'empty'))),
    approvers: nullable(arrayOf(anyOf('an approver (a username or {username, state, timestamp})', str, approver))),
  },
);
/** V1 (no commits): approvers are usernames. */
const prV1 = object(
  { url: str, state: str, merge_commit: anyOf('40 lowercase hex characters or empty', pattern(SHA1, 'a sha1'), pattern(/^$/, 'empty')) },
  { approvers: nullable(arrayOf(str)) },
);
const PULL_REQUEST_SHAPE: Shape = (v, path, errors) =>
  (typeof v === 'object' && v !== null && 'commits' in v ? prV2 : prV1)(v, path, errors);

/** The typed fields of a pull_request attestation (`data.pull_request`). */
export interface PullRequestSummary {
  provider: string;
  count: number;
  urls: string[];
  states: string[];
  /** PRs with at least one approver, and the URLs of those without. */
  approved_count: number;
  unapproved_urls: string[];
  prs: Array<{
    url: string;
    state: string;
    title: string | null;
    author: string | null;
    approvers: string[];
    commit_count: number;
    merge_commit: string | null;
    merged_at: number | null;
  }>;
}

/**
 * Pull request compliance, from the PRs the CLI found for the commit: compliant when there is at least one
 * (the reference's rule: no pull request is non-compliant). Approvals are not required by this type; they are
 * in the summary (`approved_count`, `unapproved_urls`, each PR's `approvers`) for a policy that requires them.
 */
export async function assessPullRequests({ data }: AssessmentInput<PullRequestAttestationRequestDto>): Promise<Assessment> {
  checkShape(arrayOf(PULL_REQUEST_SHAPE), data.pull_requests, 'pull_requests');
  const prs = data.pull_requests.map((raw) => {
    const pr = raw as Record<string, any>;
    const approvers = (pr.approvers ?? []).map((a: unknown) => (typeof a === 'string' ? a : (a as { username: string }).username));
    return {
      url: pr.url as string,
      state: pr.state as string,
      title: typeof pr.title === 'string' ? pr.title : null,
      author: typeof pr.author === 'string' ? pr.author : null,
      approvers,
      commit_count: Array.isArray(pr.commits) ? pr.commits.length : 0,
      merge_commit: typeof pr.merge_commit === 'string' && pr.merge_commit ? pr.merge_commit : null,
      merged_at: typeof pr.merged_at === 'number' ? pr.merged_at : null,
    };
  });
  const summary: PullRequestSummary = {
    provider: data.git_provider,
    count: prs.length,
    urls: prs.map((p) => p.url),
    states: prs.map((p) => p.state),
    approved_count: prs.filter((p) => p.approvers.length > 0).length,
    unapproved_urls: prs.filter((p) => p.approvers.length === 0).map((p) => p.url),
    prs,
  };
  const commit = data.git_commit_info?.sha1;
  const reasons = prs.length ? [] : [`no pull request was found${commit ? ` for commit ${commit}` : ''}`];
  return { isCompliant: prs.length > 0, reasons, summary: { pull_request: summary } };
}
