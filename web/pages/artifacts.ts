import { get } from '../api';
import { badge, h, link, section, table, time, value, show } from '../dom';
import { ui } from '../nav';
import type { Ctx } from './index';
import { download, pageNumber, pager, queryForm, stepPager } from './common';

/** Artifacts a page of the list shows. */
const PER_PAGE = 20;

const enc = encodeURIComponent;

export async function artifactsPage({ params, query, main, setTitle }: Ctx): Promise<void> {
  const org = params.org;
  setTitle(`Artifacts of ${org}`);
  const page = pageNumber(query);
  const flow = query.get('flow') ?? '';
  const flows = await get<any[]>(`/flows/${enc(org)}`);
  const chosen = flow || flows[0]?.name;
  const list = chosen ? await get<any>(`/artifacts/${enc(org)}/${enc(chosen)}?page=${page}&per_page=${PER_PAGE}`) : { data: [] };
  const rows: any[] = Array.isArray(list) ? list : list.data ?? list.embedded?.artifacts ?? [];
  show(main, 
    h('h1', {}, 'Artifacts'),
    queryForm('Show flow', [{ name: 'flow', label: 'Flow', value: chosen ?? '' }], 'artifacts-filter'),
    table(
      ['Artifact', 'Fingerprint', 'Compliance', 'Commit', 'Reported'],
      rows.map((a) => [
        a.filename ?? a.name ?? '',
        link(ui('o', org, 'artifacts', chosen!, a.fingerprint), a.fingerprint),
        badge(a.state === undefined ? a.is_compliant : a.state === 'COMPLIANT'),
        a.git_commit ?? a.git_commit_info?.sha1 ?? '',
        time(a.created_at),
      ]),
    ),
    // The flow's list is a plain array (no total): previous and next by the page's length.
    Array.isArray(list) ? stepPager(page, rows.length, PER_PAGE) : pager(list, page),
  );
}

export async function artifactPage({ params, main, setTitle }: Ctx): Promise<void> {
  const { org, flow, fingerprint } = params;
  setTitle(`Artifact ${fingerprint.slice(0, 12)}`);
  // The gate's answer in every environment in one request (not one per environment: 50 requests took the page past 1 s).
  const [artifact, gate] = await Promise.all([
    get<any>(`/artifacts/${enc(org)}/${enc(flow)}/fingerprint/${enc(fingerprint)}`),
    get<any>(`/asserts/${enc(org)}/fingerprint/${enc(fingerprint)}/environments`).catch((error: Error) => ({ error: error.message })),
  ]);
  const gates: any[] = 'error' in gate ? [] : gate.environments;
  const a = Array.isArray(artifact) ? artifact[0] : artifact;
  const trailName = a?.trail_name ?? a?.trail?.name;
  show(main, 
    h('h1', {}, `Artifact ${a?.filename ?? a?.name ?? fingerprint}`),
    h('p', {}, `Fingerprint ${fingerprint}`),
    trailName ? h('p', {}, 'Trail: ', link(ui('o', org, 'flows', flow, 'trails', trailName), trailName)) : null,
    section(
      'Gate answer per environment',
      'error' in gate ? h('p', { class: 'error' }, gate.error) : null,
      table(
        ['Environment', 'Answer', 'Judged by', 'Reasons'],
        gates.map((g) => [
          link(ui('o', org, 'environments', g.environment_name), g.environment_name),
          badge(g.compliant, ['allowed', 'refused']),
          g.scope === 'environment' ? (g.policy_evaluations ?? []).map((p: any) => `${p.policy_name} v${p.policy_version}`).join(', ') : 'its flows (no policy attached)',
          g.allow_listing
            ? `Allow-listed by ${g.allow_listing.allowed_by_user_id} at ${time(g.allow_listing.timestamp)}: ${g.allow_listing.description}`
            : value(g.reasons),
        ]),
        'What the gate (assert artifact) answers for this fingerprint in each environment',
      ),
    ),
    a?.git_commit ? h('p', {}, `Commit ${a.git_commit}`) : null,
    section(
      'Audit package',
      h('p', {}, download(`/api/v2/artifacts/${enc(org)}/${enc(flow)}/${enc(fingerprint)}/audit_package`, 'Download the audit package of this artifact (.tar.gz)', 'audit-package')),
    ),
    section(
      'Where it runs',
      table(
        ['Environment', 'Snapshot', 'Since'],
        (a?.running ?? []).map((r: any) => [link(ui('o', org, 'environments', r.environment_name), r.environment_name), link(ui('o', org, 'environments', r.environment_name, 'snapshots', String(r.snapshot_index)), `#${r.snapshot_index}`), time(r.timestamp)]),
      ),
      (a?.exited ?? []).length ? h('div', {}, h('h3', {}, 'No longer running in'), value(a.exited)) : null,
    ),
    section(
      'Attestations',
      table(
        ['Name', 'Type', 'Compliance', 'When'],
        Object.entries(a?.evidence ?? {}).map(([name, ev]: [string, any]) => [name, ev.evidence_type ?? '', badge(ev.is_compliant), time(ev.created_at)]),
      ),
    ),
    section('Details', value(a)),
  );
}
