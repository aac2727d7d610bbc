/** One environment of a control's coverage: covered when one of `policies` (attached, latest version) requires it. */
export interface CoveredEnvironment {
  environment_name: string;
  environment_type: string;
  covered: boolean;
  policies: string[];
}

/**
 * `GET /controls/{org}/{identifier}/coverage`: how far the control is enforced. `total`, `covered` and
 * `coverage_percent` count every environment not archived; `environments` is the page asked for (after the
 * `search` and `covered` filters), `total_count` the number of environments those filters keep.
 */
export interface ControlCoverageResponse {
  control: string;
  total: number;
  covered: number;
  coverage_percent: number;
  environments: CoveredEnvironment[];
  page: number;
  per_page: number;
  total_pages: number;
  total_count: number;
}
