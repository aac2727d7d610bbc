import { ApiError, Citation, InvalidArgumentError, VeritrailApi } from './api-client';
import { anyJson, arr, bool, citations, int, nullable, num, obj, pageOf, pagingInput, pagingOutput, Schema, str } from './schema';

/* eslint-disable @typescript-eslint/no-explicit-any -- API answers are read field by field into typed outputs. */

/** A read-only tool: what a model sees (name, description, schemas) and what it does with the API. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: Schema;
  outputSchema: Schema;
  run(api: VeritrailApi, input: any): Promise<Record<string, unknown>>;
}

export { InvalidArgumentError };

/** How many list items a tool reads from the API at most to answer one question (5 pages of 100). */
export const SCAN_LIMIT = 500;
const SCAN_PAGE = 100;
/** Largest number of slots, rules or environments one answer lists. */
const MAX_ITEMS = 200;

const name = (description: string): Schema => ({ type: 'string', minLength: 1, maxLength: 256, description });
const FINGERPRINT = '^[0-9a-fA-F]{64}$';
const hexOrPrefix = /^[0-9a-fA-F]{5,64}$/;

function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

const when = (seconds: unknown): number | null => (typeof seconds === 'number' ? seconds : null);
const strOrNull = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const boolOrNull = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

/** An ISO 8601 time (or Unix seconds) as Unix seconds; undefined when absent. */
function seconds(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : /^\d+(\.\d+)?$/.test(String(value)) ? Number(value) : Date.parse(String(value)) / 1000;
  if (!Number.isFinite(n)) throw new InvalidArgumentError(`${field} must be an ISO 8601 time (2026-11-01T00:00:00Z) or Unix seconds`);
  return n;
}

// ---------------------------------------------------------------------------------------------------------------

const artifactHit = obj({
  name: str('The artifact name (its file or image name)'),
  fingerprint: str('SHA-256 of the artifact'),
  flow: str(),
  trail: nullable(str()),
  git_commit: nullable(str()),
  compliance: nullable(str('COMPLIANT, NON-COMPLIANT, ... as the trail is now')),
  running_in: arr(str(), 'Environments it runs in now'),
  api_url: str(),
});

const findArtifact: ToolDefinition = {
  name: 'find_artifact',
  title: 'Find an artifact',
  description:
    'Find build artifacts (container images, binaries) by SHA-256 fingerprint, by git commit SHA (or a prefix of 5+ hex ' +
    'characters of either), or by name (a case-insensitive part of the file or image name). Answers each match with ' +
    'its flow, trail, commit, compliance and the environments it runs in. Use it first when the user names an ' +
    'artifact loosely; then use check_deployment_gate or explain_trail_compliance with what it found.',
  inputSchema: obj(
    {
      query: { type: 'string', minLength: 1, maxLength: 256, description: 'A fingerprint, a commit SHA, a 5+ character hex prefix of either, or part of a name' },
      flow: name('Only artifacts of this flow'),
      ...pagingInput,
    },
    ['flow', 'page', 'per_page'],
  ),
  outputSchema: obj({
    query: str(),
    matched_by: { enum: ['fingerprint', 'commit', 'multiple', 'name', 'nothing'], description: 'What the query was taken as' },
    artifacts: arr(artifactHit),
    ...pagingOutput,
    complete: bool('false when a name search stopped after the newest artifacts (see scanned)'),
    scanned: int('How many artifacts were looked at'),
    citations,
  }),
  async run(api, input) {
    const { query, flow, page = 1, per_page = 20 } = input;
    const cites: Citation[] = [];
    if (hexOrPrefix.test(query)) {
      let body: any = { resolved_to: { type: 'nothing' }, artifacts: [] };
      try {
        const answer = await api.getJson<any>(api.path(['search', api.org, 'sha', query.toLowerCase()]));
        body = answer.body;
        cites.push(answer.citation);
      } catch (error) {
        if (!isNotFound(error)) throw error;
        if ((error as ApiError).citation) cites.push((error as ApiError).citation!);
      }
      const hits = (body.artifacts ?? [])
        .filter((a: any) => !flow || a.flow === flow)
        .map((a: any) => ({
          name: String(a.name ?? ''),
          fingerprint: String(a.fingerprint),
          flow: String(a.flow ?? a.pipeline ?? ''),
          trail: strOrNull(a.trail),
          git_commit: strOrNull(a.git_commit),
          compliance: strOrNull(a.compliance_state),
          running_in: (a.running_in ?? []).map(String),
          api_url: String(a.api_url ?? ''),
        }));
      const type = hits.length ? String(body.resolved_to?.type ?? 'fingerprint') : 'nothing';
      const p = pageOf(hits, page, per_page);
      return { query, matched_by: type, artifacts: p.items, ...pageFields(p), complete: true, scanned: hits.length, citations: cites };
    }
    const needle = String(query).toLowerCase();
    const hits: any[] = [];
    let scanned = 0;
    let complete = false;
    for (let apiPage = 1; scanned < SCAN_LIMIT; apiPage++) {
      const answer = await api.getJson<any[]>(api.path(['artifacts', api.org], { flow_name: flow, page: apiPage, per_page: SCAN_PAGE }));
      cites.push(answer.citation);
      scanned += answer.body.length;
      for (const a of answer.body) {
        if (!String(a.filename ?? '').toLowerCase().includes(needle)) continue;
        hits.push({
          name: String(a.filename),
          fingerprint: String(a.fingerprint),
          flow: String(a.flow_name),
          trail: strOrNull(a.trail_name),
          git_commit: strOrNull(a.git_commit),
          compliance: strOrNull(a.state),
          running_in: (a.running ?? []).map((r: any) => String(r.environment_name)),
          api_url: String(a.api_url ?? ''),
        });
      }
      if (answer.body.length < SCAN_PAGE) {
        complete = true;
        break;
      }
    }
    const p = pageOf(hits, page, per_page);
    return { query, matched_by: hits.length ? 'name' : 'nothing', artifacts: p.items, ...pageFields(p), complete, scanned, citations: cites };
  },
};

function pageFields(p: { page: number; per_page: number; total: number; has_more: boolean }) {
  return { page: p.page, per_page: p.per_page, total: p.total, has_more: p.has_more };
}

// ---------------------------------------------------------------------------------------------------------------

const slot = obj({
  slot: str('The slot: an attestation name, or an artifact template name'),
  kind: { enum: ['attestation', 'artifact', 'artifact_attestation'] },
  artifact: nullable(str('For an artifact or its attestations: the artifact template name')),
  type: nullable(str('Attestation type (generic, junit, override, decision, ...)')),
  status: str('COMPLETE, MISSING, COMPLIANT, NON-COMPLIANT, ...'),
  is_compliant: nullable(bool()),
  attestation_id: nullable(str()),
  overridden_attestation_id: nullable(str('For an override: the attestation whose verdict it replaced')),
  expected: bool('Whether the flow template asks for this slot'),
});

const explainTrail: ToolDefinition = {
  name: 'explain_trail_compliance',
  title: 'Why a trail is or is not compliant',
  description:
    'Explain why one trail (a change or release of a flow) is COMPLIANT or NON-COMPLIANT: every slot (attestations ' +
    'and artifacts, expected by the flow template or not) with its verdict, the reasons for non-compliance (missing or ' +
    'failing attestations), and the overrides that replaced a verdict (who overrode what). Needs the flow and trail names.',
  inputSchema: obj({ flow: name('Flow name'), trail: name('Trail name') }),
  outputSchema: obj({
    flow: str(),
    trail: str(),
    status: str('COMPLIANT, NON-COMPLIANT, INCOMPLETE, ...'),
    is_compliant: bool(),
    slots: arr(slot),
    reasons: arr(str(), 'Why it is not compliant (empty when it is)'),
    overrides: arr(obj({ slot: str(), attestation_id: nullable(str()), overridden_attestation_id: nullable(str()) })),
    truncated: bool(`true when the trail has more than ${MAX_ITEMS} slots (the first are listed)`),
    html_url: nullable(str()),
    citations,
  }),
  async run(api, { flow, trail }) {
    const answer = await api.getJson<any>(api.path(['trails', api.org, flow, trail]));
    const t = answer.body;
    const cs = t.compliance_status ?? {};
    const slots: any[] = [];
    const attestationSlot = (a: any, kind: string, artifact: string | null) => ({
      slot: String(a.attestation_name ?? ''),
      kind,
      artifact,
      type: strOrNull(a.attestation_type),
      status: String(a.status ?? 'UNKNOWN'),
      is_compliant: boolOrNull(a.is_compliant),
      attestation_id: strOrNull(a.attestation_id),
      overridden_attestation_id: strOrNull(a.overridden_attestation_id),
      expected: a.unexpected !== true,
    });
    for (const a of cs.attestations_statuses ?? []) slots.push(attestationSlot(a, 'attestation', null));
    for (const [template, art] of Object.entries<any>(cs.artifacts_statuses ?? {})) {
      slots.push({
        slot: template,
        kind: 'artifact',
        artifact: template,
        type: null,
        status: String(art.status ?? 'UNKNOWN'),
        is_compliant: boolOrNull(art.is_compliant),
        attestation_id: null,
        overridden_attestation_id: null,
        expected: art.unexpected !== true,
      });
      for (const a of art.attestations_statuses ?? []) slots.push(attestationSlot(a, 'artifact_attestation', template));
    }
    const reasons: string[] = [];
    for (const s of slots) {
      if (s.is_compliant !== false && s.status !== 'MISSING') continue;
      const where = s.kind === 'artifact_attestation' ? ` of artifact '${s.artifact}'` : '';
      if (s.status === 'MISSING') reasons.push(`${s.kind === 'artifact' ? 'artifact' : 'attestation'} '${s.slot}'${where} is required by the template and missing`);
      else if (s.kind === 'artifact') reasons.push(`artifact '${s.slot}' is ${s.status}`);
      else reasons.push(`attestation '${s.slot}'${where} (${s.type ?? 'unknown type'}) is not compliant`);
    }
    if (!reasons.length && cs.is_compliant === false) reasons.push(`the trail is ${cs.status ?? t.compliance_state}`);
    const overrides = slots
      .filter((s) => s.type === 'override' || s.overridden_attestation_id)
      .map((s) => ({ slot: s.slot, attestation_id: s.attestation_id, overridden_attestation_id: s.overridden_attestation_id }));
    return {
      flow,
      trail,
      status: String(cs.status ?? t.compliance_state ?? 'UNKNOWN'),
      is_compliant: Boolean(cs.is_compliant ?? t.is_compliant),
      slots: slots.slice(0, MAX_ITEMS),
      reasons: reasons.slice(0, MAX_ITEMS),
      overrides: overrides.slice(0, MAX_ITEMS),
      truncated: slots.length > MAX_ITEMS,
      html_url: strOrNull(t.html_url),
      citations: [answer.citation],
    };
  },
};

// ---------------------------------------------------------------------------------------------------------------

const checkGate: ToolDefinition = {
  name: 'check_deployment_gate',
  title: 'Can this artifact be deployed to this environment?',
  description:
    "The deployment gate's answer for one artifact (by its SHA-256 fingerprint) in one environment: allowed or not, " +
    "judged against the policies attached to the environment and its allow-list, exactly as `kosli assert artifact` and " +
    'the admission webhook judge it. Lists every unmet rule with its policy, reasons and what resolved it, and the ' +
    'trails the artifact was reported in. Use find_artifact first if you only have a name or commit.',
  inputSchema: obj({
    fingerprint: { type: 'string', pattern: FINGERPRINT, description: 'SHA-256 fingerprint of the artifact (64 hex characters)' },
    environment: name('Environment name'),
  }),
  outputSchema: obj({
    fingerprint: str(),
    environment: str(),
    allowed: bool('true when every policy of the environment is satisfied (or the artifact is allow-listed)'),
    reasons: arr(str(), 'Why it is refused (empty when allowed)'),
    unmet_rules: arr(
      obj({
        policy: str(),
        policy_version: nullable(int()),
        rule: str('The rule type (provenance, trail-compliance, attestations, ...)'),
        definition: anyJson,
        reasons: arr(str()),
        resolutions: arr(obj({ type: str(), context: anyJson })),
      }),
    ),
    policies: arr(obj({ policy: str(), policy_version: nullable(int()), status: str() })),
    allow_listing: { ...anyJson, description: 'The allow-list entry that let it through, or null' },
    trails: arr(obj({ flow: str(), trail: nullable(str()), compliant: nullable(bool()), html_url: nullable(str()) })),
    citations,
  }),
  async run(api, { fingerprint, environment }) {
    const answer = await api.getJson<any>(api.path(['asserts', api.org, 'fingerprint', fingerprint.toLowerCase()], { environment_name: environment }));
    const b = answer.body;
    const unmet: any[] = [];
    const policies: any[] = [];
    for (const p of b.policy_evaluations ?? []) {
      policies.push({ policy: String(p.policy_name), policy_version: typeof p.policy_version === 'number' ? p.policy_version : null, status: String(p.status) });
      for (const r of p.rule_evaluations ?? []) {
        if (r.satisfied || r.ignored) continue;
        unmet.push({
          policy: String(p.policy_name),
          policy_version: typeof p.policy_version === 'number' ? p.policy_version : null,
          rule: String(r.rule?.type ?? 'unknown'),
          definition: r.rule?.definition ?? null,
          reasons: (r.reasons ?? []).map(String),
          resolutions: (r.resolutions ?? []).map((x: any) => ({ type: String(x.type), context: x.context ?? null })),
        });
      }
    }
    return {
      fingerprint: String(b.fingerprint ?? fingerprint),
      environment,
      allowed: Boolean(b.compliant),
      reasons: (b.reasons ?? []).map(String).slice(0, MAX_ITEMS),
      unmet_rules: unmet.slice(0, MAX_ITEMS),
      policies: policies.slice(0, MAX_ITEMS),
      allow_listing: b.allow_listing ?? null,
      trails: (b.flows ?? []).slice(0, MAX_ITEMS).map((f: any) => ({
        flow: String(f.flow),
        trail: strOrNull(f.trail),
        compliant: boolOrNull(f.compliant),
        html_url: strOrNull(f.html_url),
      })),
      citations: [answer.citation],
    };
  },
};

// ---------------------------------------------------------------------------------------------------------------

const runningArtifact = obj({
  name: str(),
  fingerprint: nullable(str()),
  compliant: nullable(bool()),
  instance_count: nullable(int()),
  flows: arr(obj({ flow: str(), trail: nullable(str()) }), 'Where it was built (its provenance); empty when unknown'),
  reasons: arr(str(), 'Why it is not compliant'),
});

const environmentNow: ToolDefinition = {
  name: 'environment_now',
  title: 'What runs in an environment',
  description:
    'What runs in an environment now (its latest snapshot), or at an earlier snapshot: each artifact with its ' +
    'fingerprint, compliance, instance count, provenance (flow and trail) and reasons for non-compliance. `snapshot` ' +
    "takes a snapshot number, 'latest', '~N' (N before the latest) or '@' followed by a time.",
  inputSchema: obj(
    {
      environment: name('Environment name'),
      snapshot: { type: 'string', minLength: 1, maxLength: 64, default: 'latest', description: "Snapshot number, 'latest', '~1', or '@2026-11-01T12:00:00Z'" },
      ...pagingInput,
    },
    ['snapshot', 'page', 'per_page'],
  ),
  outputSchema: obj({
    environment: str(),
    snapshot: int('The snapshot number'),
    timestamp: nullable(num('Unix seconds when it was taken')),
    is_latest: nullable(bool()),
    compliant: nullable(bool()),
    artifacts: arr(runningArtifact),
    ...pagingOutput,
    html_url: nullable(str()),
    citations,
  }),
  async run(api, { environment, snapshot = 'latest', page = 1, per_page = 20 }) {
    const answer = await api.getJson<any>(api.path(['snapshots', api.org, environment, snapshot]));
    const s = answer.body;
    const all = (s.artifacts ?? []).map((a: any) => ({
      name: String(a.name ?? ''),
      fingerprint: strOrNull(a.fingerprint),
      compliant: boolOrNull(a.compliant),
      instance_count: typeof a.instance_count === 'number' ? a.instance_count : null,
      flows: (a.flows ?? []).map((f: any) => ({ flow: String(f.flow_name), trail: strOrNull(f.trail_name) })),
      reasons: (a.reasons_for_incompliance ?? []).map(String),
    }));
    const p = pageOf(all, page, per_page);
    return {
      environment,
      snapshot: Number(s.index),
      timestamp: when(s.timestamp),
      is_latest: boolOrNull(s.is_latest),
      compliant: boolOrNull(s.compliant),
      artifacts: p.items,
      ...pageFields(p),
      html_url: strOrNull(s.html_url),
      citations: [answer.citation],
    };
  },
};

const environmentChanges: ToolDefinition = {
  name: 'environment_changes',
  title: 'What changed in an environment between two snapshots',
  description:
    'What changed in an environment between two snapshots: artifacts added, removed, or changed (scaled) with their ' +
    "fingerprints, compliance and flows. `from` and `to` take a snapshot number, 'latest', '~N' or '@' and a time, " +
    "so 'what changed since yesterday' is from '@<yesterday>' to 'latest'.",
  inputSchema: obj(
    {
      environment: name('Environment name'),
      from: { type: 'string', minLength: 1, maxLength: 64, description: "The earlier snapshot: a number, '~1', or '@2026-11-01T12:00:00Z'" },
      to: { type: 'string', minLength: 1, maxLength: 64, default: 'latest', description: "The later snapshot (default 'latest')" },
      ...pagingInput,
    },
    ['to', 'page', 'per_page'],
  ),
  outputSchema: obj({
    environment: str(),
    from: obj({ snapshot: nullable(int()), timestamp: nullable(num()) }),
    to: obj({ snapshot: nullable(int()), timestamp: nullable(num()) }),
    changes: arr(
      obj({
        change: { enum: ['added', 'removed', 'changed'] },
        name: str(),
        fingerprint: nullable(str()),
        from_instance_count: nullable(int()),
        to_instance_count: nullable(int()),
        compliant: nullable(bool()),
        flows: arr(str()),
      }),
    ),
    ...pagingOutput,
    citations,
  }),
  async run(api, { environment, from, to = 'latest', page = 1, per_page = 20 }) {
    const answer = await api.getJson<any>(api.path(['environments', api.org, environment, 'diff'], { from, to }));
    const d = answer.body;
    const all: any[] = [];
    for (const change of ['added', 'removed', 'changed'] as const) {
      for (const a of d[change] ?? []) {
        all.push({
          change,
          name: String(a.name ?? ''),
          fingerprint: strOrNull(a.fingerprint),
          from_instance_count: typeof a.from_instance_count === 'number' ? a.from_instance_count : null,
          to_instance_count: typeof a.to_instance_count === 'number' ? a.to_instance_count : null,
          compliant: boolOrNull(a.compliant),
          flows: (a.flows ?? []).map((f: any) => String(typeof f === 'string' ? f : f.flow_name)),
        });
      }
    }
    const p = pageOf(all, page, per_page);
    const end = (x: any) => ({ snapshot: typeof x?.index === 'number' ? x.index : null, timestamp: when(x?.timestamp) });
    return { environment, from: end(d.from), to: end(d.to), changes: p.items, ...pageFields(p), citations: [answer.citation] };
  },
};

// ---------------------------------------------------------------------------------------------------------------

const nonCompliant: ToolDefinition = {
  name: 'list_non_compliant',
  title: 'Non-compliant trails or environments in a time span',
  description:
    'List what was non-compliant in a time span: trails (changes/releases) that are NON-COMPLIANT and were active in ' +
    'the span, or environments that had a non-compliant snapshot in the span (with those snapshot numbers). Times are ' +
    `ISO 8601 or Unix seconds; \`to\` defaults to now. Looks at the newest ${SCAN_LIMIT} trails (or 50 environments) at ` +
    'most: `complete` says whether that was everything.',
  inputSchema: obj(
    {
      kind: { enum: ['trails', 'environments'], description: 'What to list' },
      from: { type: 'string', minLength: 1, maxLength: 40, description: 'Start of the span (2026-11-01T00:00:00Z)' },
      to: { type: 'string', minLength: 1, maxLength: 40, description: 'End of the span (default now)' },
      flow: name('For trails: only this flow'),
      ...pagingInput,
    },
    ['to', 'flow', 'page', 'per_page'],
  ),
  outputSchema: obj({
    kind: str(),
    from: num('Unix seconds'),
    to: num('Unix seconds'),
    items: arr(
      obj({
        kind: { enum: ['trail', 'environment'] },
        name: str(),
        flow: nullable(str()),
        status: str(),
        non_compliant_snapshots: arr(int(), 'For an environment: its non-compliant snapshots in the span'),
        last_change: nullable(num('Unix seconds')),
        api_url: str(),
      }),
    ),
    ...pagingOutput,
    scanned: int(),
    complete: bool(),
    citations,
  }),
  async run(api, input) {
    const from = seconds(input.from, 'from')!;
    const to = seconds(input.to, 'to') ?? Date.now() / 1000;
    if (to < from) throw new InvalidArgumentError('to must not be before from');
    const { page = 1, per_page = 20 } = input;
    const cites: Citation[] = [];
    const items: any[] = [];
    let scanned = 0;
    let complete = false;
    if (input.kind === 'trails') {
      for (let apiPage = 1; scanned < SCAN_LIMIT; apiPage++) {
        const answer = await api.getJson<any>(api.path(['trails', api.org], { flow: input.flow, page: apiPage, per_page: SCAN_PAGE }));
        cites.push(answer.citation);
        const data: any[] = answer.body.data ?? [];
        scanned += data.length;
        for (const t of data) {
          const compliant = t.compliance_status?.is_compliant ?? t.is_compliant;
          if (compliant !== false) continue;
          if (!(t.created_at <= to && t.last_modified_at >= from)) continue;
          items.push({
            kind: 'trail',
            name: String(t.name),
            flow: String(t.flow?.name ?? ''),
            status: String(t.compliance_status?.status ?? t.compliance_state),
            non_compliant_snapshots: [],
            last_change: when(t.last_modified_at),
            api_url: api.cite(api.path(['trails', api.org, t.flow?.name ?? '', t.name])),
          });
        }
        if (!answer.body._links?.next || data.length === 0) {
          complete = true;
          break;
        }
      }
    } else {
      const envs = await api.getJson<any[]>(api.path(['environments', api.org]));
      cites.push(envs.citation);
      const list = envs.body.slice(0, 50);
      complete = envs.body.length <= 50;
      for (const env of list) {
        scanned++;
        const snaps = await api.getJson<any[]>(api.path(['snapshots', api.org, env.name], { per_page: SCAN_PAGE }));
        cites.push(snaps.citation);
        const bad = snaps.body
          .filter((s) => s.compliant === false && s.from <= to && (s.to === 0 || s.to >= from))
          .map((s) => Number(s.index))
          .sort((a, b) => a - b);
        if (snaps.body.length >= SCAN_PAGE) complete = false;
        if (!bad.length) continue;
        items.push({
          kind: 'environment',
          name: String(env.name),
          flow: null,
          status: 'NON-COMPLIANT',
          non_compliant_snapshots: bad,
          last_change: when(env.last_changed_at),
          api_url: api.cite(api.path(['environments', api.org, env.name])),
        });
      }
    }
    const p = pageOf(items, page, per_page);
    return { kind: input.kind, from, to, items: p.items, ...pageFields(p), scanned, complete, citations: cites };
  },
};

// ---------------------------------------------------------------------------------------------------------------

const decision = obj({
  evaluation_id: str(),
  status: str('completed, failed, ...'),
  allow: nullable(bool('The policy result\'s `allow`, when it has one')),
  requested_at: nullable(num()),
  decision_attestation_id: nullable(str('The decision attestation recorded in the trail')),
  policy_digest: nullable(str()),
  input_digest: nullable(str()),
  result_digest: nullable(str()),
  trails: arr(obj({ flow: str(), trail: str(), moment: nullable(int()) })),
});

function decisionOf(e: any) {
  const v = e.verification ?? {};
  return {
    evaluation_id: String(e.id),
    status: String(e.status),
    allow: boolOrNull(e.result?.allow),
    requested_at: when(e.requested_at),
    decision_attestation_id: strOrNull(e.decision_attestation_id),
    policy_digest: strOrNull(v.policy_digest),
    input_digest: strOrNull(v.input_digest),
    result_digest: strOrNull(v.result_digest),
    trails: (v.trails ?? []).map((t: any) => ({ flow: String(t.flow_name), trail: String(t.trail_name), moment: typeof t.moment_number === 'number' ? t.moment_number : null })),
  };
}

/** Environments one control_decisions answer lists (the coverage route's largest page). */
const COVERAGE_PAGE = 100;

function environmentCoverage(c: any) {
  const environments = (c.environments ?? []).map((e: any) => ({
    name: String(e.environment_name),
    type: String(e.environment_type),
    covered: Boolean(e.covered),
    policies: (e.policies ?? []).map(String),
  }));
  environments.sort((x: { covered: boolean }, y: { covered: boolean }) => Number(y.covered) - Number(x.covered));
  return {
    total: Number(c.total ?? 0),
    covered: Number(c.covered ?? 0),
    coverage_percent: Number(c.coverage_percent ?? 0),
    environments,
    complete: Number(c.total_count ?? environments.length) <= environments.length,
  };
}

const controlDecisions: ToolDefinition = {
  name: 'control_decisions',
  title: "A control's decisions and coverage",
  description:
    'A control (a compliance requirement such as "tests pass before release") with the decisions that answered it: ' +
    'each evaluation with its allow/deny outcome, policy and digests and the trails it judged, newest first; its ' +
    'coverage: how many decisions allowed or denied, which flows and trails have a decision; and where it is ' +
    'enforced: the environments whose attached policies require a decision for it (environment_coverage). Needs ' +
    'the beta features `controls` and `evaluations`.',
  inputSchema: obj({ control: name('Control identifier'), ...pagingInput }, ['page', 'per_page']),
  outputSchema: obj({
    control: obj({
      identifier: str(),
      name: str(),
      version: nullable(int()),
      archived: bool(),
      policies_referencing: arr(str(), 'Digests of the policies that name this control'),
    }),
    decisions: arr(decision),
    ...pagingOutput,
    coverage: obj({
      decisions: int(),
      allowed: int(),
      denied: int(),
      other: int('Failed evaluations, or results without allow'),
      flows: arr(str()),
      trails: arr(obj({ flow: str(), trail: str() })),
      complete: bool(`false when the control has more than ${SCAN_LIMIT} decisions (the newest are counted)`),
    }),
    environment_coverage: obj({
      total: int('Environments not archived'),
      covered: int('Of those, the ones whose attached policies require a decision for this control'),
      coverage_percent: num('covered / total x 100, to one decimal'),
      environments: arr(
        obj({ name: str(), type: str(), covered: bool(), policies: arr(str(), 'The attached policies that require it') }),
        `The environments, covered first (at most ${COVERAGE_PAGE})`,
      ),
      complete: bool(`false when there are more than ${COVERAGE_PAGE} environments (total and covered still count them all)`),
    }),
    citations,
  }),
  async run(api, { control, page = 1, per_page = 20 }) {
    const c = await api.getJson<any>(api.path(['controls', api.org, control]));
    const listed = await api.getJson<any>(api.path(['evaluations', api.org], { control, page, per_page }));
    const cites = [c.citation, listed.citation];
    const all: any[] = [];
    let complete = false;
    for (let apiPage = 1; all.length < SCAN_LIMIT; apiPage++) {
      const answer = await api.getJson<any>(api.path(['evaluations', api.org], { control, page: apiPage, per_page: SCAN_PAGE }));
      cites.push(answer.citation);
      all.push(...(answer.body.data ?? []));
      if (!answer.body._links?.next) {
        complete = true;
        break;
      }
    }
    const enforced = await api.getJson<any>(api.path(['controls', api.org, control, 'coverage'], { per_page: COVERAGE_PAGE }));
    cites.push(enforced.citation);
    const decisions = all.map(decisionOf);
    const trails = new Map<string, { flow: string; trail: string }>();
    for (const d of decisions) for (const t of d.trails) trails.set(`${t.flow}\u0000${t.trail}`, { flow: t.flow, trail: t.trail });
    const pagination = listed.body.pagination ?? {};
    return {
      control: {
        identifier: String(c.body.identifier),
        name: String(c.body.name ?? ''),
        version: typeof c.body.version === 'number' ? c.body.version : null,
        archived: Boolean(c.body.archived),
        policies_referencing: (c.body.policies_referencing ?? []).map(String),
      },
      decisions: (listed.body.data ?? []).map(decisionOf),
      page: Number(pagination.page ?? page),
      per_page: Number(pagination.per_page ?? per_page),
      total: Number(pagination.total ?? 0),
      has_more: Boolean(listed.body._links?.next),
      coverage: {
        decisions: decisions.length,
        allowed: decisions.filter((d) => d.allow === true).length,
        denied: decisions.filter((d) => d.allow === false).length,
        other: decisions.filter((d) => d.allow === null).length,
        flows: [...new Set([...trails.values()].map((t) => t.flow))].sort(),
        trails: [...trails.values()].slice(0, MAX_ITEMS),
        complete,
      },
      environment_coverage: environmentCoverage(enforced.body),
      citations: cites,
    };
  },
};

// ---------------------------------------------------------------------------------------------------------------

/** Bounds on the policy text one explain_evaluation answer carries (a bundle may be megabytes of data files). */
const MAX_POLICY_FILES = 50;
const MAX_POLICY_TEXT = 32_000;

/** The bundle's files in path order, their text cut to a shared budget; digests always whole. */
function boundedPolicy(p: any) {
  const files: Record<string, string> = p.files ?? {};
  const digests: Record<string, string> = p.file_digests ?? {};
  const paths = Object.keys(files).sort();
  let budget = MAX_POLICY_TEXT;
  const listed = paths.slice(0, MAX_POLICY_FILES).map((path) => {
    const whole = String(files[path]);
    if (path.endsWith('.wasm')) return { path, sha256: String(digests[path] ?? ''), length: whole.length, text: null, truncated: false };
    const text = whole.slice(0, Math.max(budget, 0));
    budget -= text.length;
    return { path, sha256: String(digests[path] ?? ''), length: whole.length, text, truncated: text.length < whole.length };
  });
  return { digest: String(p.digest), files: listed, complete: listed.length === paths.length && listed.every((f) => !f.truncated) };
}

const explainEvaluation: ToolDefinition = {
  name: 'explain_evaluation',
  title: "An evaluation's policy, digests and replay",
  description:
    'One policy evaluation (a Rego policy run against trails at fixed moments): its result (or its error), its ' +
    'policy files (the Rego text as sent, each with its sha256; long files are cut, see truncated), the ' +
    'digests of its policy (the policy is identified by its bundle digest, which a control lists in ' +
    'policies_referencing), input and result, the engine, the trails and moments it read, and the decision it recorded. With ' +
    '`replay: true` it also runs the evaluation again and says whether the same input gives the same result ' +
    '(needs a member key; a reader gets the API\'s refusal). Needs the beta feature `evaluations`.',
  inputSchema: obj(
    { id: { type: 'string', minLength: 1, maxLength: 64, description: 'Evaluation id' }, replay: { type: 'boolean', default: false, description: 'Also run it again' } },
    ['replay'],
  ),
  outputSchema: obj({
    id: str(),
    status: str(),
    control: nullable(str()),
    result: anyJson,
    error: { ...anyJson, description: "Why the evaluation failed ({kind, message}), or null" },
    requested_at: nullable(num()),
    recorded_at: nullable(num()),
    decision_attestation_id: nullable(str()),
    policy_digest: nullable(str('sha256 of the policy bundle evaluated')),
    input_digest: nullable(str()),
    result_digest: nullable(str()),
    engine: nullable(str()),
    engine_version: nullable(str()),
    trails: arr(obj({ flow: str(), trail: str(), moment: nullable(int()) })),
    policy: obj({
      digest: str('The bundle digest (sha256 of the canonical JSON of the file digests)'),
      files: arr(
        obj({
          path: str(),
          sha256: str("SHA-256 (hex) of the whole file's text"),
          length: int('Characters in the whole file'),
          text: nullable(str('The file as sent, cut when truncated; null for a compiled .wasm file (base64)')),
          truncated: bool('true when text is only the start of the file'),
        }),
        `The bundle's files by path (at most ${MAX_POLICY_FILES}; ${MAX_POLICY_TEXT} characters of text in all)`,
      ),
      complete: bool('false when files were left out or cut: read the full bundle at the cited URL'),
    }),
    replay: nullable(
      obj({
        identical: bool('true when the replay reproduced the recorded input and result digests'),
        input_digest: obj({ recorded: nullable(str()), replayed: nullable(str()) }),
        result_digest: obj({ recorded: nullable(str()), replayed: nullable(str()) }),
      }),
    ),
    citations,
  }),
  async run(api, { id, replay = false }) {
    const answer = await api.getJson<any>(api.path(['evaluations', api.org, id]));
    const e = answer.body;
    const d = decisionOf(e);
    const bundle = await api.getJson<any>(api.path(['evaluations', api.org, id, 'policy']));
    const cites = [answer.citation, bundle.citation];
    let replayed = null;
    if (replay) {
      const r = await api.postJson<any>(api.path(['evaluations', api.org, id, 'replay']));
      cites.push(r.citation);
      const pair = (x: any) => ({ recorded: strOrNull(x?.recorded), replayed: strOrNull(x?.replayed) });
      replayed = { identical: Boolean(r.body.identical), input_digest: pair(r.body.input_digest), result_digest: pair(r.body.result_digest) };
    }
    return {
      id: d.evaluation_id,
      status: d.status,
      control: strOrNull(e.control),
      result: e.result ?? null,
      error: e.error ?? null,
      requested_at: d.requested_at,
      recorded_at: when(e.recorded_at),
      decision_attestation_id: d.decision_attestation_id,
      policy_digest: d.policy_digest,
      input_digest: d.input_digest,
      result_digest: d.result_digest,
      engine: strOrNull(e.verification?.engine),
      engine_version: strOrNull(e.verification?.engine_version),
      trails: d.trails,
      policy: boundedPolicy(bundle.body),
      replay: replayed,
      citations: cites,
    };
  },
};

// ---------------------------------------------------------------------------------------------------------------

/** The tree size of a C2SP checkpoint note (its second line). */
function checkpointSize(note: string): number | null {
  const line = note.split('\n')[1];
  return line && /^\d+$/.test(line) ? Number(line) : null;
}

const logProof: ToolDefinition = {
  name: 'log_inclusion_proof',
  title: "A record's inclusion proof in the evidence log",
  description:
    "Prove that a record (an attestation, by default) is in the organization's append-only evidence log: its " +
    'position, leaf hash and canonical leaf, the latest signed checkpoint, and the Merkle audit path from the leaf to ' +
    "that checkpoint's root (RFC 9162), which anyone can check offline with the log's public keys " +
    '(`npm run verify`). A record written moments ago may not be in a signed checkpoint yet; the answer says so.',
  inputSchema: obj(
    {
      kind: { type: 'string', minLength: 1, maxLength: 40, default: 'attestation', description: 'The kind of record (attestation, ...)' },
      id: { type: 'string', minLength: 1, maxLength: 128, description: 'The record id (an attestation id)' },
    },
    ['kind'],
  ),
  outputSchema: obj({
    kind: str(),
    id: str(),
    index: nullable(int('Position in the log; null while the record is not yet sequenced')),
    leaf_hash: str('base64'),
    leaf: str('The RFC 8785 canonical JSON the leaf hash is over'),
    tree_size: nullable(int('The tree size the proof is for')),
    audit_path: arr(str('base64')),
    checkpoint: nullable(str('The latest signed checkpoint (a C2SP signed note)')),
    checkpoint_covers_record: bool('Whether that checkpoint includes the record (else the proof is to the current, unsigned tree)'),
    note: str('What the proof shows, in a sentence'),
    citations,
  }),
  async run(api, { kind = 'attestation', id }) {
    const found = await api.getJson<any>(api.path(['log', api.org, 'lookup'], { kind, id }));
    const cites = [found.citation];
    const index: number | null = typeof found.body.index === 'number' ? found.body.index : null;
    const base = { kind, id, index, leaf_hash: String(found.body.leaf_hash), leaf: String(found.body.leaf ?? '') };
    let checkpoint: string | null = null;
    try {
      const cp = await api.getText(api.path(['log', api.org, 'checkpoint']));
      checkpoint = cp.body;
      cites.push(cp.citation);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    if (index === null) {
      return {
        ...base,
        tree_size: null,
        audit_path: [],
        checkpoint,
        checkpoint_covers_record: false,
        note: 'The record is logged but not yet sequenced into the tree; ask again shortly for its proof.',
        citations: cites,
      };
    }
    const signedSize = checkpoint ? checkpointSize(checkpoint) : null;
    let treeSize = signedSize !== null && signedSize > index ? signedSize : null;
    if (treeSize === null) {
      const entries = await api.getJson<any>(api.path(['log', api.org, 'entries'], { start: index, limit: 1 }));
      cites.push(entries.citation);
      treeSize = Number(entries.body.tree_size);
    }
    const proof = await api.getJson<any>(
      api.path(['log', api.org, 'proof', 'inclusion'], { leaf_hash: Buffer.from(base.leaf_hash, 'base64').toString('hex'), tree_size: treeSize }),
    );
    cites.push(proof.citation);
    const covered = signedSize !== null && signedSize > index;
    return {
      ...base,
      tree_size: treeSize,
      audit_path: (proof.body.audit_path ?? []).map(String),
      checkpoint,
      checkpoint_covers_record: covered,
      note: covered
        ? `Leaf ${index} is included in the signed checkpoint of size ${treeSize}: hash the leaf with the audit path and compare with the checkpoint's root.`
        : `Leaf ${index} is in the log's current tree of size ${treeSize}; no signed checkpoint covers it yet.`,
      citations: cites,
    };
  },
};

/** Every tool the server offers, in the order it lists them. */
export const TOOLS: ToolDefinition[] = [
  findArtifact,
  explainTrail,
  checkGate,
  environmentNow,
  environmentChanges,
  nonCompliant,
  controlDecisions,
  explainEvaluation,
  logProof,
];
