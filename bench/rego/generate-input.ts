/**
 * Deterministic evaluation input for the benchmark: `input.trails` as the service builds it for policies:
 * each trail is a GET-trail document shaped like a real GET-trail response
 * (git commit info, template, events...), with flow_name / trail_name / moment_number added and a
 * compliance_status whose attestations_statuses are maps name -> slot. 20 attestation slots per trail: 4 at trail
 * level and 8 on each of 2 artifacts. A seeded PRNG makes some slots missing, failing, stale or unexpected.
 */
export const NOW_S = 1_790_000_000; // fixed "now" (seconds) so freshness results are stable

const TRAIL_ATTESTATIONS: Array<[string, string]> = [
  ['pull-request', 'pull_request'],
  ['unit-tests', 'junit'],
  ['security-scan', 'snyk'],
  ['change-approval', 'generic'],
];
const ARTIFACT_ATTESTATIONS: Array<[string, string]> = [
  ['provenance-facts', 'custom:provenance-facts'],
  ['provenance-decision', 'system:decision'],
  ['sbom-facts', 'custom:sbom-facts'],
  ['sbom-decision', 'system:decision'],
  ['container-scan', 'snyk'],
  ['lint', 'junit'],
  ['sonarcloud-scan', 'sonar'],
  ['coverage', 'generic'],
];
const ARTIFACTS = ['backend', 'frontend'];
const FLOWS = ['billing-ci', 'checkout-ci', 'dashboard-ci', 'identity-ci', 'inventory-ci', 'search-ci', 'shipping-ci', 'web-ci'];

/** mulberry32: small seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hex(rand: () => number, n: number): string {
  let s = '';
  while (s.length < n) s += Math.floor(rand() * 16).toString(16);
  return s;
}

function uuid(rand: () => number): string {
  return `${hex(rand, 8)}-${hex(rand, 4)}-${hex(rand, 4)}-${hex(rand, 4)}-${hex(rand, 8)}`;
}

function slot(rand: () => number, name: string, type: string): Record<string, unknown> {
  const r = rand();
  if (r < 0.04) {
    return { attestation_name: name, attestation_type: type, attestation_id: null, overridden_attestation_id: null, status: 'MISSING', is_compliant: false, unexpected: false };
  }
  const ageDays = rand() < 0.05 ? 31 + rand() * 60 : rand() * 29;
  return {
    attestation_name: name,
    attestation_type: type,
    attestation_id: uuid(rand),
    overridden_attestation_id: null,
    status: 'COMPLETE',
    is_compliant: r >= 0.08,
    unexpected: rand() < 0.03,
    created_at: NOW_S - ageDays * 86400,
  };
}

function events(rand: () => number, ids: { flow: string; trail: string }, sha: string, n: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    out.push({
      org_id: 'org-0001',
      flow_id: ids.flow,
      trail_id: ids.trail,
      timestamp: NOW_S - 86400 + i * 30,
      type: i === 0 ? 'trail_reported' : 'attestation_reported',
      git_commit_info: {
        sha1: sha,
        message: 'Bump dependencies and rerun the pipeline (#1234)',
        author: 'Dev Eloper <dev@example.com>',
        author_username: null,
        branch: 'main',
        timestamp: NOW_S - 90000,
        url: `https://github.com/example/repo/commit/${sha}`,
        parents: null,
        verified: null,
      },
      user_data: {},
      origin_url: `https://github.com/example/repo/actions/runs/${Math.floor(rand() * 1e10)}`,
      attestation_id: uuid(rand),
      html_url: `https://app.example.com/example/flows/f/trails/${sha}`,
    });
  }
  return out;
}

export interface InputOptions {
  trails?: number;
  /** Keep the GET-trail fields the policy does not read (events, template, commit info). */
  full?: boolean;
  seed?: number;
}

export function generateInput(opts: InputOptions = {}): { trails: unknown[] } {
  const rand = prng(opts.seed ?? 42);
  const n = opts.trails ?? 100;
  const trails: Array<Record<string, unknown>> = [];
  for (let i = 0; i < n; i++) {
    const flow = FLOWS[i % FLOWS.length];
    const sha = hex(rand, 40);
    const top: Record<string, unknown> = {};
    for (const [name, type] of TRAIL_ATTESTATIONS) {
      // Now and then a required attestation was never reported at all.
      if (name === 'change-approval' && rand() < 0.1) continue;
      top[name] = slot(rand, name, type);
    }
    const artifacts: Record<string, unknown> = {};
    for (const artifact of ARTIFACTS) {
      const statuses: Record<string, unknown> = {};
      for (const [name, type] of ARTIFACT_ATTESTATIONS) statuses[name] = slot(rand, name, type);
      const ok = Object.values(statuses).every((s) => (s as { is_compliant: boolean }).is_compliant);
      artifacts[artifact] = {
        artifact_fingerprint: hex(rand, 64),
        artifact_id: uuid(rand),
        status: ok ? 'COMPLIANT' : 'NON-COMPLIANT',
        is_compliant: ok,
        attestations_statuses: statuses,
        unexpected: false,
        evaluated_at: NOW_S - 3600,
        flow_template_id: 'tmpl-1',
      };
    }
    const compliant =
      Object.values(top).every((s) => (s as { is_compliant: boolean }).is_compliant) &&
      Object.values(artifacts).every((a) => (a as { is_compliant: boolean }).is_compliant);
    const trail: Record<string, unknown> = {
      name: sha,
      flow_name: flow,
      trail_name: sha,
      moment_number: i + 1,
      description: '',
      created_at: NOW_S - 86400,
      last_modified_at: NOW_S - 3600,
      compliance_status: {
        status: compliant ? 'COMPLIANT' : 'NON-COMPLIANT',
        is_compliant: compliant,
        attestations_statuses: top,
        artifacts_statuses: artifacts,
        evaluated_at: NOW_S - 3600,
        flow_template_id: 'tmpl-1',
      },
      compliance_state: compliant ? 'COMPLIANT' : 'NON-COMPLIANT',
      is_compliant: compliant,
    };
    if (opts.full !== false) {
      Object.assign(trail, {
        git_commit_info: {
          sha1: sha,
          message: 'Bump dependencies and rerun the pipeline (#1234)',
          author: 'Dev Eloper <dev@example.com>',
          branch: 'main',
          timestamp: NOW_S - 90000,
          url: `https://github.com/example/repo/commit/${sha}`,
        },
        origin_url: `https://github.com/example/repo/actions/runs/${Math.floor(rand() * 1e10)}`,
        user_data: {},
        repo_ids: [uuid(rand)],
        template: {
          version: 1,
          trail: {
            attestations: TRAIL_ATTESTATIONS.map(([name, type]) => ({ name, type })),
            artifacts: ARTIFACTS.map((name) => ({ name, attestations: ARTIFACT_ATTESTATIONS.map(([n2, type]) => ({ name: n2, type })) })),
          },
        },
        events: events(rand, { flow: `flow-${i % FLOWS.length}`, trail: uuid(rand) }, sha, 21),
        created_by: 'ci-pipelines',
        flow: { name: flow, tags: { ci: 'github', kind: 'build' } },
        external_urls: {},
        html_url: `https://app.example.com/example/flows/${flow}/trails/${sha}`,
      });
    }
    trails.push(trail);
  }
  // The service sorts trails by flow name, then trail name.
  const key = (t: Record<string, unknown>) => [String(t.flow_name), String(t.trail_name)];
  trails.sort((a, b) => {
    const [fa, ta] = key(a);
    const [fb, tb] = key(b);
    return fa !== fb ? (fa < fb ? -1 : 1) : ta < tb ? -1 : ta > tb ? 1 : 0;
  });
  return { trails };
}
