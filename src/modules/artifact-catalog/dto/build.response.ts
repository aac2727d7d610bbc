/** One build: an artifact reported into a trail (the reference's `BuildItemResponse`). */
export interface BuildResponse {
  created_at: number;
  fingerprint: string;
  flow_name: string;
  trail_name: string;
  repo_info: { id: string | null; name: string; url: string | null; provider: string | null } | null;
  _links: { artifact: string; trail: string };
}

export interface BuildPage {
  builds: BuildResponse[];
  page: number;
  per_page: number;
  total_pages: number;
  total_count: number;
  _links: { self: string; first: string; last: string; next: string | null; prev: string | null };
}
